/**
 * The data plane: frames, rails, credits, acknowledgements, retransmission, write striping, memory regions, queue
 * pairs and completion queues, and the TCP rail transport for real hosts.
 *
 * <p>The seams are {@link io.xdlink.rails.RailTransport} (moves frames for one rail) and
 * {@link io.xdlink.rails.Fabric} (lists peers and links and opens control channels and rails); the simulator and a
 * real host both implement them. Each device has one progress engine, an {@link io.xdlink.rails.Agent}, that owns
 * its rails; API calls hand it work through queues and never block.
 */
package io.xdlink.rails;
