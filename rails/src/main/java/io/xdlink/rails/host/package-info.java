/**
 * The fabric of a real host: peers and links read from sysfs (under a configurable root, so tests and the lab run
 * on fake trees), rails as TCP connections over each link's thunderbolt-net interface, and one session per peer
 * that carries the XDomain handshake naming each host's rails and a keepalive that fails the rails of a dead peer
 * and brings them back when it returns. Chosen by {@link io.xdlink.rails.host.HostFabricProvider} whenever the
 * simulator is off.
 */
package io.xdlink.rails.host;
