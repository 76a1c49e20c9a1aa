package io.xdlink.it.lab;

import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two hosts, {@code a} and {@code b}, as network namespaces joined by {@code cables} veth pairs. Cable k is
 * {@code thunderbolt<k>} on both sides, addressed as {@link Addressing} says (by default 10.77.k.1/30 on a and
 * 10.77.k.2/30 on b), shaped by a token bucket at {@code rateMbit} in each direction (0: unshaped). Everything it
 * creates it removes on {@link #close}, and a namespace left over by a
 * killed run is removed before it is created again.
 */
public final class NetnsLab implements AutoCloseable {
    /** Set to 1 to make a lab that cannot be built fail instead of skip. */
    public static final String REQUIRE_VARIABLE = "XDLINK_REQUIRE_NETNS";

    private final String a;
    private final String b;
    private final int cables;
    private final long rateMbit;
    private final int mtu;
    private final Addressing addressing;
    private boolean closed;

    /** How users number the two ends of each cable, as thunderbolt-net set-ups in the field do. */
    public enum Addressing {
        /** A /30 per cable, 10.77.k.1 and 10.77.k.2: the other end follows from the prefix. */
        P2P,
        /** A /24 per cable, 10.78.k.1 and 10.78.k.2. */
        S24,
        /** NetworkManager's link-local IPv4: 169.254.k.1 and 169.254.k.2, all cables in one 169.254.0.0/16. */
        LL,
        /** No IPv4 at all: each end has only the IPv6 link-local address the kernel gives it. */
        V6;

        /** The IPv4 address and prefix of cable k's end on host a or b, or null for {@link #V6}. */
        String ipv4(int k, boolean hostA) {
            String x = hostA ? "1" : "2";
            return switch (this) {
                case P2P -> "10.77." + k + "." + x + "/30";
                case S24 -> "10.78." + k + "." + x + "/24";
                case LL -> "169.254." + k + "." + x + "/16";
                case V6 -> null;
            };
        }
    }

    private NetnsLab(String tag, int cables, long rateMbit, int mtu, Addressing addressing) {
        this.a = "xdl" + tag + "a";
        this.b = "xdl" + tag + "b";
        this.cables = cables;
        this.rateMbit = rateMbit;
        this.mtu = mtu;
        this.addressing = addressing;
    }

    /**
     * Builds the lab, or aborts the calling test with the reason when this machine cannot (not root, no iproute2, no
     * namespace support), failing instead when {@code XDLINK_REQUIRE_NETNS=1}.
     *
     * @param tag      a few characters that keep concurrent labs apart
     * @param cables   veth pairs between the two hosts
     * @param rateMbit each cable's rate per direction, Mbit/s; 0 leaves the cables unshaped
     * @param mtu      the interfaces' MTU (thunderbolt-net uses 65520)
     */
    public static NetnsLab create(String tag, int cables, long rateMbit, int mtu) {
        return create(tag, cables, rateMbit, mtu, Addressing.P2P);
    }

    /** As {@link #create(String, int, long, int)}, with the cables addressed as {@code addressing} says. */
    public static NetnsLab create(String tag, int cables, long rateMbit, int mtu, Addressing addressing) {
        if (!tag.matches("[a-z0-9]{1,6}")) {
            throw new IllegalArgumentException("tag must be 1-6 lower-case letters or digits: " + tag);
        }
        String why = unavailableBecause();
        if (why != null) {
            unavailable(why);
        }
        NetnsLab lab = new NetnsLab(tag, cables, rateMbit, mtu, addressing);
        try {
            lab.build();
        } catch (RuntimeException e) {
            lab.close();
            unavailable("could not build the namespace lab: " + e.getMessage());
        }
        return lab;
    }

    /**
     * Returns when network namespaces can be built here; aborts the calling test with the reason otherwise, failing
     * instead when {@code XDLINK_REQUIRE_NETNS=1}. For labs of another shape ({@link RingLab}).
     */
    static void requireAvailable() {
        String why = unavailableBecause();
        if (why != null) {
            unavailable(why);
        }
    }

    /** Why no lab can be built here, or null when it can. */
    static String unavailableBecause() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the two-host lab needs root (network namespaces, veth, tc); running as "
                    + System.getProperty("user.name");
        }
        for (String tool : List.of("ip", "tc")) {
            if (!onPath(tool)) {
                return "the two-host lab needs '" + tool + "' (iproute2), which is not on PATH";
            }
        }
        return null;
    }

    static void unavailable(String why) {
        if ("1".equals(System.getenv(REQUIRE_VARIABLE))) {
            throw new AssertionError(REQUIRE_VARIABLE + "=1 but " + why);
        }
        throw new TestAbortedException("skipped: " + why);
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private void build() {
        for (String ns : List.of(a, b)) {
            run(false, "ip", "netns", "del", ns);
            run(true, "ip", "netns", "add", ns);
            run(true, "ip", "-n", ns, "link", "set", "lo", "up");
        }
        for (int k = 0; k < cables; k++) {
            String ifname = interfaceName(k);
            String ta = "xv" + a + k;
            String tb = "xv" + b + k;
            run(true, "ip", "link", "add", ta, "netns", a, "type", "veth", "peer", "name", tb, "netns", b);
            run(true, "ip", "-n", a, "link", "set", ta, "name", ifname);
            run(true, "ip", "-n", b, "link", "set", tb, "name", ifname);
            configure(a, ifname, addressing.ipv4(k, true));
            configure(b, ifname, addressing.ipv4(k, false));
        }
        if (addressing == Addressing.V6) {
            awaitLinkLocal();
        }
    }

    private void configure(String ns, String ifname, String address) {
        run(true, "ip", "-n", ns, "link", "set", ifname, "mtu", Integer.toString(mtu));
        if (address != null) {
            run(true, "ip", "-n", ns, "addr", "add", address, "dev", ifname);
        } else {
            // IPv6 on, and no duplicate-address wait: the link-local address is usable as soon as the link is up.
            run(false, "ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf." + ifname + ".disable_ipv6=0");
            run(false, "ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf." + ifname + ".accept_dad=0");
        }
        run(true, "ip", "-n", ns, "link", "set", ifname, "up");
        if (rateMbit <= 0) {
            return; // unshaped: the processors, not the cable, are the limit, as on a 20-40 Gb/s USB4 link
        }
        // A token bucket on each side's egress shapes each direction of the cable. The bucket holds 1 MiB so that
        // a 64 KiB frame always fits and the shaper, not its granularity, sets the rate.
        run(true, "tc", "-n", ns, "qdisc", "add", "dev", ifname, "root", "tbf", "rate", rateMbit + "mbit",
                "burst", "1mb", "latency", "50ms");
    }

    /** Waits until every cable end has a link-local address that is no longer tentative. */
    private void awaitLinkLocal() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (String ns : List.of(a, b)) {
            for (int k = 0; k < cables; k++) {
                while (true) {
                    String out = run(true, "ip", "-n", ns, "-6", "-o", "addr", "show", "dev", interfaceName(k),
                            "scope", "link");
                    if (out.contains("fe80:") && !out.contains("tentative")) {
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(ns + " " + interfaceName(k) + " has no usable link-local"
                                + " address: " + out.strip());
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
            }
        }
    }

    /**
     * The address a client on host b gives to reach host a's bench server over cable 0: host a's IPv4 address on
     * it, or its IPv6 link-local address scoped to {@code thunderbolt0}.
     */
    public String serverAddress() {
        if (addressing != Addressing.V6) {
            String v4 = addressing.ipv4(0, true);
            return v4.substring(0, v4.indexOf('/'));
        }
        String out = run(true, "ip", "-n", a, "-6", "-o", "addr", "show", "dev", interfaceName(0), "scope", "link");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("inet6 (fe80:[0-9a-f:]+)/").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no link-local address on " + a + " " + interfaceName(0) + ": " + out);
        }
        return m.group(1) + "%" + interfaceName(0);
    }

    public Addressing addressing() {
        return addressing;
    }

    /** The interface name of cable k on either host. */
    public static String interfaceName(int k) {
        return "thunderbolt" + k;
    }

    /** The address of cable k's end on host a (10.77.k.1) or b (10.77.k.2). */
    public static String address(int k, boolean hostA) {
        return "10.77." + k + "." + (hostA ? 1 : 2);
    }

    public String namespaceA() {
        return a;
    }

    public String namespaceB() {
        return b;
    }

    public int cables() {
        return cables;
    }

    public long rateMbit() {
        return rateMbit;
    }

    /** Bytes cable k's interface on host a or b has sent since the lab was made: what went out of that cable. */
    public long txBytes(boolean hostA, int k) {
        // ip netns exec mounts the namespace's own /sys/class/net.
        String out = run(true, "ip", "netns", "exec", hostA ? a : b, "cat",
                "/sys/class/net/" + interfaceName(k) + "/statistics/tx_bytes").strip();
        return Long.parseLong(out);
    }

    /** A command line that runs {@code command} inside host a's or b's namespace. */
    public List<String> inNamespace(boolean hostA, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", hostA ? a : b));
        full.addAll(command);
        return full;
    }

    /** Runs a short command (ip, tc) and returns its output; fails when it fails. */
    public static String exec(String... command) {
        return run(true, command);
    }

    /**
     * What a short command ended with, output being both its streams together.
     *
     * @param status its exit status
     */
    public record Ran(int status, String output) {
        public boolean ok() {
            return status == 0;
        }

        /** The line a failure of {@code command} is reported with: the command, its status and its output. */
        public String failure(String... command) {
            return String.join(" ", command) + " failed (exit status " + status + (status == 124 ? ", a timeout"
                    : status > 128 ? ", signal " + (status - 128) : "") + "): " + output.strip();
        }
    }

    /** Runs a short command and returns how it ended, failed or not; fails only when it cannot be run or hangs. */
    public static Ran attempt(String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            return new Ran(p.exitValue(), out);
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String run(boolean mustSucceed, String... command) {
        Ran r = attempt(command);
        if (mustSucceed && !r.ok()) {
            throw new IllegalStateException(r.failure(command));
        }
        return r.output();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Deleting a namespace deletes its end of every veth pair, and with it the peer end.
        run(false, "ip", "netns", "del", a);
        run(false, "ip", "netns", "del", b);
    }
}
