/**
 * The USB4 inter-domain (XDomain) protocol, spoken exactly as Linux speaks it.
 *
 * <p>Here live the XDomain discovery packets and their codec (big-endian words with a CRC-32C trailer), the property
 * block codec, the local service registry and remote services, the per-peer discovery and lane-bonding state
 * machine, {@link io.xdlink.xdomain.LinkState} (what a link negotiated), the {@link io.xdlink.xdomain.ControlChannel}
 * seam that carries packets to one peer, the {@link io.xdlink.xdomain.Scheduler} every timeout goes through, and the
 * read-only view of a real host's {@code /sys/bus/thunderbolt}. The facts are in the shared XDomain specification;
 * names follow the Linux driver so a reader of either recognises the other.
 */
package io.xdlink.xdomain;
