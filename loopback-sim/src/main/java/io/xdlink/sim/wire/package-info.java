/**
 * What moves frames across a simulated cable: the per-direction {@link io.xdlink.sim.wire.Wire} with its token
 * bucket shared by every rail on the cable, the lock-free {@link io.xdlink.sim.wire.FrameChannel} of one rail
 * direction (TX ring, wire, RX ring: a plain channel, or a shaped one that paces, puts frames through the fault
 * stage and drops what overflows, both over one entry ring), the two {@link io.xdlink.sim.wire.SimRailTransport}
 * ends of a rail, and ring 0 as a {@link io.xdlink.xdomain.ControlChannel}. Kept apart from the fabric so its timing
 * can be tested frame by frame in virtual time.
 */
package io.xdlink.sim.wire;
