/**
 * The XDomain discovery and lane-bonding state machine, one per link to a peer, as Linux runs it: UUID exchange,
 * properties-changed notifications, link status and the bonding roles, the chunked properties read with generation
 * gating, and the answers to the peer's own requests. Every timeout and retry goes through the host's
 * {@link io.xdlink.xdomain.Scheduler}, so a test runs the 10 s bonding timeout in virtual time; the lanes are
 * driven through {@link io.xdlink.xdomain.LaneAdapter}, packets travel on a
 * {@link io.xdlink.xdomain.ControlChannel}. The outcome per peer is an immutable
 * {@link io.xdlink.xdomain.discovery.Peer} snapshot that listeners receive on every change.
 */
package io.xdlink.xdomain.discovery;
