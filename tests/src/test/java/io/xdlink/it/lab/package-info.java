/**
 * The two-host lab, on one machine: two network namespaces joined by veth pairs that stand in for USB4 cables, each
 * rate-limited with {@code tc} and named like thunderbolt-net interfaces, plus a fake {@code /sys/bus/thunderbolt}
 * tree per host describing those links. Server and client run as separate processes inside their namespaces and
 * reach each other only through the "cables". The lab needs root, {@code ip} and {@code tc}; without them its tests
 * skip with the reason, unless {@code XDLINK_REQUIRE_NETNS=1} (as CI sets it) turns the skip into a failure.
 */
package io.xdlink.it.lab;
