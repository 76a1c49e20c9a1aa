/**
 * Rails and control channels over TCP, for real hosts: a USB4 host-to-host cable carries user-space traffic today as
 * the thunderbolt-net IP link, so a rail here is one TCP connection bound to that link's interface, and the XDomain
 * control channel is a session stream that carries ring-0 packets unchanged beside heartbeats. One {@link
 * io.xdlink.rails.tcp.IoLoop} thread per host runs listeners, session streams, keepalives and set-up; frames never
 * pass through it, they move on the progress engine's thread through non-blocking sockets and batch buffers. The
 * loop only watches a rail's socket for its engine ({@link io.xdlink.rails.tcp.ArrivalWatch}), so that an engine
 * parked while idle is woken when frames arrive rather than when its park runs out.
 */
package io.xdlink.rails.tcp;
