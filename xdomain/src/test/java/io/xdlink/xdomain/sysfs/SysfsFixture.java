package io.xdlink.xdomain.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Builds a {@code /sys} tree the way the kernel lays it out: devices under {@code /sys/devices/<pci>/<nhi>/domainN},
 * each reachable through a relative link in {@code /sys/bus/thunderbolt/devices}, drivers linked from services. Used
 * by this module's tests and, through the test jar, by the command line's.
 */
public final class SysfsFixture {
    private final Path root;
    private final Path bus;

    private SysfsFixture(Path root) {
        this.root = root;
        this.bus = root.resolve("sys/bus/thunderbolt");
        mkdirs(bus.resolve("devices"));
        mkdirs(bus.resolve("drivers"));
    }

    /** A bus with no devices yet, under {@code root}. */
    public static SysfsFixture create(Path root) {
        return new SysfsFixture(root);
    }

    public Path root() {
        return root;
    }

    /** The directory of a device in {@code /sys/devices}, found through its bus link. */
    public Path device(String name) {
        return bus.resolve("devices").resolve(name);
    }

    /** A domain hanging off the NHI at {@code pciAddress} (below {@code pci0000:00}), with its host router N-0. */
    public SysfsFixture domain(int index, String pciAddress, UUID hostUuid) {
        Path nhi = root.resolve("sys/devices/pci0000:00").resolve(pciAddress);
        Path domain = nhi.resolve("domain" + index);
        write(domain.resolve("uevent"), "DEVTYPE=thunderbolt_domain");
        write(domain.resolve("security"), "user");
        link("domain" + index, domain);
        Path router = domain.resolve(index + "-0");
        write(router.resolve("uevent"), "DEVTYPE=thunderbolt_device");
        write(router.resolve("unique_id"), hostUuid.toString());
        write(router.resolve("vendor"), "0x8086");
        write(router.resolve("device"), "0x15ea");
        write(router.resolve("authorized"), "1");
        link(index + "-0", router);
        return this;
    }

    /** A router (a dock, a hub) at a route below the host router. */
    public SysfsFixture router(int domain, String route) {
        Path dir = hostRouter(domain).resolve(domain + "-" + route);
        write(dir.resolve("uevent"), "DEVTYPE=thunderbolt_device");
        write(dir.resolve("unique_id"), UUID.nameUUIDFromBytes(route.getBytes()).toString());
        write(dir.resolve("authorized"), "1");
        write(dir.resolve("rx_speed"), "20.0 Gb/s");
        write(dir.resolve("rx_lanes"), "2");
        link(domain + "-" + route, dir);
        return this;
    }

    /** A retimer on the host router's port 1. */
    public SysfsFixture retimer(int domain) {
        Path dir = hostRouter(domain).resolve(domain + "-0:1.1");
        write(dir.resolve("uevent"), "DEVTYPE=thunderbolt_retimer");
        link(domain + "-0:1.1", dir);
        return this;
    }

    /** Starts an XDomain peer at a route below the host router; {@link Peer#done()} returns here. */
    public Peer peer(int domain, String route, UUID uuid) {
        return new Peer(domain, route, uuid);
    }

    /** Overwrites (or creates) one file below a device, for malformed-input tests. */
    public SysfsFixture file(String device, String attribute, String content) {
        writeRaw(device(device).resolve(attribute), content);
        return this;
    }

    /** Removes one file below a device. */
    public SysfsFixture remove(String device, String attribute) {
        try {
            Files.delete(device(device).resolve(attribute));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private Path hostRouter(int domain) {
        return root.resolve("sys/devices/pci0000:00").resolve(nhiOf(domain)).resolve("domain" + domain)
                .resolve(domain + "-0");
    }

    private String nhiOf(int domain) {
        try (var s = Files.list(root.resolve("sys/devices/pci0000:00"))) {
            return s.filter(p -> Files.isDirectory(p.resolve("domain" + domain))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no domain" + domain + " yet")).getFileName()
                    .toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void link(String name, Path target) {
        Path entry = bus.resolve("devices").resolve(name);
        try {
            Files.createSymbolicLink(entry, entry.getParent().relativize(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String line) {
        writeRaw(file, line + "\n");
    }

    static void writeRaw(Path file, String content) {
        try {
            mkdirs(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One XDomain peer being built. */
    public final class Peer {
        private final int domain;
        private final String name;
        private final Path dir;

        private Peer(int domain, String route, UUID uuid) {
            this.domain = domain;
            this.name = domain + "-" + route;
            this.dir = hostRouter(domain).resolve(name);
            write(dir.resolve("uevent"), "DEVTYPE=thunderbolt_xdomain");
            write(dir.resolve("unique_id"), uuid.toString());
            write(dir.resolve("vendor"), "0x8086");
            write(dir.resolve("vendor_name"), "Intel Corp.");
            write(dir.resolve("device"), "0x1");
            write(dir.resolve("device_name"), "peer-" + route);
            write(dir.resolve("maxhopid"), "15");
            link(20, 1);
            SysfsFixture.this.link(name, dir);
        }

        public Peer names(int vendor, String vendorName, int device, String deviceName) {
            write(dir.resolve("vendor"), vendor == 0 ? "0" : "0x" + Integer.toHexString(vendor));
            write(dir.resolve("vendor_name"), vendorName);
            write(dir.resolve("device"), device == 0 ? "0" : "0x" + Integer.toHexString(device));
            write(dir.resolve("device_name"), deviceName);
            return this;
        }

        /** Symmetric link: per-lane Gb/s and lanes both ways. */
        public Peer link(int laneGbps, int lanes) {
            return link(laneGbps, lanes, lanes);
        }

        /** Per-lane Gb/s with tx and rx lanes (asymmetric Gen 4 has 3 one way, 1 the other). */
        public Peer link(int laneGbps, int txLanes, int rxLanes) {
            write(dir.resolve("tx_speed"), laneGbps + ".0 Gb/s");
            write(dir.resolve("rx_speed"), laneGbps + ".0 Gb/s");
            write(dir.resolve("tx_lanes"), Integer.toString(txLanes));
            write(dir.resolve("rx_lanes"), Integer.toString(rxLanes));
            return this;
        }

        /**
         * A service {@code <peer>.<id>}; {@code driver} null for an unbound one, {@code netInterface} null for none.
         */
        public Peer service(int id, String key, int prtcid, int prtcvers, int prtcrevs, int prtcstns, String driver,
                            String netInterface) {
            String svcName = name + "." + id;
            Path svc = dir.resolve(svcName);
            String modalias = String.format("tbsvc:k%sp%08Xv%08Xr%08X", key, prtcid, prtcvers, prtcrevs);
            write(svc.resolve("uevent"), "DEVTYPE=thunderbolt_service\nMODALIAS=" + modalias);
            write(svc.resolve("key"), key);
            write(svc.resolve("prtcid"), Integer.toUnsignedString(prtcid));
            write(svc.resolve("prtcvers"), Integer.toUnsignedString(prtcvers));
            write(svc.resolve("prtcrevs"), Integer.toUnsignedString(prtcrevs));
            write(svc.resolve("prtcstns"), String.format("0x%08x", prtcstns));
            write(svc.resolve("modalias"), modalias);
            if (driver != null) {
                Path drv = bus.resolve("drivers").resolve(driver);
                mkdirs(drv);
                try {
                    Files.createSymbolicLink(svc.resolve("driver"), svc.relativize(drv));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (netInterface != null) {
                write(svc.resolve("net").resolve(netInterface).resolve("mtu"), "65520");
            }
            SysfsFixture.this.link(svcName, svc);
            return this;
        }

        /** thunderbolt-net's service as Linux publishes it, bound, with its interface. */
        public Peer network(String netInterface) {
            return service(0, "network", 1, 1, 1, 0x7, "thunderbolt-net", netInterface);
        }

        public SysfsFixture done() {
            return SysfsFixture.this;
        }

        @Override
        public String toString() {
            return name + " in domain " + domain;
        }
    }
}
