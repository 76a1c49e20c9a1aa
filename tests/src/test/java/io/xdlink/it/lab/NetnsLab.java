package io.xdlink.it.lab;

import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two hosts, {@code a} and {@code b}, as network namespaces joined by {@code cables} veth pairs. Cable k is
 * {@code thunderbolt<k>} on both sides, 10.77.k.1 on a and 10.77.k.2 on b, shaped by a token bucket at
 * {@code rateMbit} in each direction (0: unshaped). Everything it creates it removes on {@link #close}, and a namespace left over by a
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
    private boolean closed;

    private NetnsLab(String tag, int cables, long rateMbit, int mtu) {
        this.a = "xdl" + tag + "a";
        this.b = "xdl" + tag + "b";
        this.cables = cables;
        this.rateMbit = rateMbit;
        this.mtu = mtu;
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
        if (!tag.matches("[a-z0-9]{1,6}")) {
            throw new IllegalArgumentException("tag must be 1-6 lower-case letters or digits: " + tag);
        }
        String why = unavailableBecause();
        if (why != null) {
            unavailable(why);
        }
        NetnsLab lab = new NetnsLab(tag, cables, rateMbit, mtu);
        try {
            lab.build();
        } catch (RuntimeException e) {
            lab.close();
            unavailable("could not build the namespace lab: " + e.getMessage());
        }
        return lab;
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

    private static void unavailable(String why) {
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
            configure(a, ifname, address(k, true));
            configure(b, ifname, address(k, false));
        }
    }

    private void configure(String ns, String ifname, String address) {
        run(true, "ip", "-n", ns, "link", "set", ifname, "mtu", Integer.toString(mtu));
        run(true, "ip", "-n", ns, "addr", "add", address + "/30", "dev", ifname);
        run(true, "ip", "-n", ns, "link", "set", ifname, "up");
        if (rateMbit <= 0) {
            return; // unshaped: the processors, not the cable, are the limit, as on a 20-40 Gb/s USB4 link
        }
        // A token bucket on each side's egress shapes each direction of the cable. The bucket holds 1 MiB so that
        // a 64 KiB frame always fits and the shaper, not its granularity, sets the rate.
        run(true, "tc", "-n", ns, "qdisc", "add", "dev", ifname, "root", "tbf", "rate", rateMbit + "mbit",
                "burst", "1mb", "latency", "50ms");
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

    private static String run(boolean mustSucceed, String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            if (mustSucceed && p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
