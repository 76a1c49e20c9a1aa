/**
 * The read-only view of a real Linux host's USB4 bus, {@code /sys/bus/thunderbolt/devices}, under a configurable
 * root so tests and {@code --root} can point it at a fixture tree.
 *
 * <p>{@link io.xdlink.xdomain.sysfs.ThunderboltSysfs} walks the bus once and returns a
 * {@link io.xdlink.xdomain.sysfs.HostView}: the XDomain peers with the {@link io.xdlink.xdomain.LinkState} the kernel
 * negotiated, their services with bound drivers and thunderbolt-net interfaces, and the domains with the PCI device of
 * their host interface (the NHI). Most of what sysfs shows about a peer was written by the peer itself (its names, its
 * service keys), and a tree under {@code --root} may be anything, so every file read is bounded, every value is
 * parsed strictly, and every failure becomes a {@link io.xdlink.xdomain.sysfs.SysfsProblem} naming the file rather
 * than an exception: one bad attribute costs that attribute, never the view. Nothing here writes.
 */
package io.xdlink.xdomain.sysfs;
