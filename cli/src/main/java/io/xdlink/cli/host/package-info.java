/**
 * {@code xdlink topology}: what the kernel shows about this host's USB4 peers, their links and services, read from
 * sysfs under a root that defaults to {@code /} and can point at a copy of another host's tree. Read-only and
 * unprivileged, like every command that looks at the real host.
 */
package io.xdlink.cli.host;
