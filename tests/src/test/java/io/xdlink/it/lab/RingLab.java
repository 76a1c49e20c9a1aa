package io.xdlink.it.lab;

import io.xdlink.xdomain.sysfs.SysfsFixture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Three hosts cabled in a ring, each a network namespace with a fake sysfs tree, so every host has two peers, one per
 * cable, as three machines cabled in a triangle have. Host i's {@code thunderbolt0} is cabled to host i+1's
 * {@code thunderbolt1}, addressed 10.79.i.1/30 and 10.79.i.2/30 and unshaped; in host i's tree the peer at route 1
 * is host i+1 over {@code thunderbolt0} and the peer at route 3 is host i-1 over {@code thunderbolt1}, each a bonded
 * Gen 3 link (40 Gb/s). Everything it creates it removes on {@link #close}.
 */
public final class RingLab implements AutoCloseable {
    public static final int HOSTS = 3;
    /** The cable to the next host and the cable to the one before, on every host. */
    public static final String TO_NEXT = "thunderbolt0";
    public static final String TO_PREVIOUS = "thunderbolt1";

    private final List<String> namespaces = new ArrayList<>();
    private final Path dir;
    private boolean closed;

    private RingLab(String tag, Path dir) {
        for (int i = 0; i < HOSTS; i++) {
            namespaces.add("xdl" + tag + "r" + i);
        }
        this.dir = dir;
    }

    /**
     * Builds the ring, its sysfs trees under {@code dir}, or aborts the calling test with the reason when this
     * machine cannot (failing instead when {@code XDLINK_REQUIRE_NETNS=1}).
     *
     * @param tag a few characters that keep concurrent labs apart
     */
    public static RingLab create(String tag, Path dir) {
        if (!tag.matches("[a-z0-9]{1,5}")) {
            throw new IllegalArgumentException("tag must be 1-5 lower-case letters or digits: " + tag);
        }
        NetnsLab.requireAvailable();
        RingLab lab = new RingLab(tag, dir);
        try {
            lab.build();
        } catch (RuntimeException e) {
            lab.close();
            NetnsLab.unavailable("could not build the ring lab: " + e.getMessage());
        }
        return lab;
    }

    /** Host i's UUID, as its tree and its peers' trees give it. */
    public static UUID uuid(int i) {
        return UUID.fromString(String.format("1a2b3c4d-0000-4000-8000-0000000000%02x", 0xc0 + i));
    }

    /** Host i's address on the cable to host i+1 (its {@link #TO_NEXT}). */
    public static String addressToNext(int i) {
        return "10.79." + i + ".1";
    }

    public String namespace(int i) {
        return namespaces.get(i);
    }

    /** Host i's sysfs root, for {@code host_root}. */
    public Path root(int i) {
        return dir.resolve("host" + i);
    }

    /** Bytes host i has sent out of {@code ifname} so far. */
    public long txBytes(int i, String ifname) {
        return Long.parseLong(NetnsLab.exec("ip", "netns", "exec", namespace(i), "cat",
                "/sys/class/net/" + ifname + "/statistics/tx_bytes").strip());
    }

    /** A command line that runs {@code command} inside host i's namespace. */
    public List<String> inNamespace(int i, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
        full.addAll(command);
        return full;
    }

    private void build() {
        for (String ns : namespaces) {
            NetnsLab.attempt("ip", "netns", "del", ns);
            NetnsLab.exec("ip", "netns", "add", ns);
            NetnsLab.exec("ip", "-n", ns, "link", "set", "lo", "up");
        }
        for (int i = 0; i < HOSTS; i++) {
            int next = (i + 1) % HOSTS;
            String here = "xr" + namespace(i);
            String there = "xr" + namespace(next) + "p";
            NetnsLab.exec("ip", "link", "add", here, "netns", namespace(i), "type", "veth", "peer", "name", there,
                    "netns", namespace(next));
            cableEnd(namespace(i), here, TO_NEXT, "10.79." + i + ".1/30");
            cableEnd(namespace(next), there, TO_PREVIOUS, "10.79." + i + ".2/30");
        }
        for (int i = 0; i < HOSTS; i++) {
            try {
                SysfsFixture.create(Files.createDirectories(root(i))).domain(0, "0000:00:0d.2", uuid(i))
                        .peer(0, "1", uuid((i + 1) % HOSTS)).link(20, 2).network(TO_NEXT).done()
                        .peer(0, "3", uuid((i + HOSTS - 1) % HOSTS)).link(20, 2).network(TO_PREVIOUS).done();
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot write host " + i + "'s sysfs tree: " + e.getMessage(), e);
            }
        }
    }

    private static void cableEnd(String ns, String veth, String ifname, String address) {
        NetnsLab.exec("ip", "-n", ns, "link", "set", veth, "name", ifname);
        NetnsLab.exec("ip", "-n", ns, "addr", "add", address, "dev", ifname);
        NetnsLab.exec("ip", "-n", ns, "link", "set", ifname, "up");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Deleting a namespace deletes its end of every veth pair, and with it the peer end.
        for (String ns : namespaces) {
            NetnsLab.attempt("ip", "netns", "del", ns);
        }
    }
}
