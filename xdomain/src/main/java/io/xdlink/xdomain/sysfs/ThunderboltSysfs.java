package io.xdlink.xdomain.sysfs;

import io.xdlink.xdomain.LinkState;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Arrays;

/**
 * Reads {@code /sys/bus/thunderbolt/devices} under a root into a {@link HostView}. Read-only, needs no privileges,
 * and never throws for what it finds: each unreadable or malformed file becomes a {@link SysfsProblem}.
 *
 * <p>Every entry is classified by the DEVTYPE in its {@code uevent} (a dock's router and a peer are both named
 * {@code 0-1}; only the type tells them apart), falling back to the name and, for {@code <domain>-<route>}, to the
 * presence of {@code maxhopid}, which only XDomain devices have.
 */
public final class ThunderboltSysfs {
    /** More devices than a bus of a few dozen hosts can have; a tree with more is refused, not walked. */
    static final int MAX_ENTRIES = 4096;
    /** Network interfaces listed per service. */
    static final int MAX_INTERFACES = 64;

    private static final Pattern DOMAIN = Pattern.compile("domain([0-9]{1,6})");
    private static final Pattern ROUTE = Pattern.compile("([0-9]{1,6})-([0-9a-f]{1,16})");
    private static final Pattern SERVICE = Pattern.compile("(([0-9]{1,6})-[0-9a-f]{1,16})\\.([0-9]{1,6})");
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    private enum Kind { DOMAIN, ROUTER, XDOMAIN, SERVICE, OTHER }

    private final Path root;
    private final List<SysfsProblem> problems = new ArrayList<>();
    private Path realRoot;

    private ThunderboltSysfs(Path root) {
        this.root = root;
    }

    /** The bus as it is now under {@code root} ({@code /} on a live host). */
    public static HostView read(Path root) {
        return new ThunderboltSysfs(root).scan();
    }

    /** The directory the view lists, under a root. */
    public static Path devicesDir(Path root) {
        return root.resolve("sys/bus/thunderbolt/devices");
    }

    private HostView scan() {
        Path bus = root.resolve("sys/bus/thunderbolt");
        if (!Files.isDirectory(bus)) {
            return new HostView(root.toString(), false, List.of(), List.of(), 0, 0, List.of());
        }
        try {
            realRoot = root.toRealPath();
        } catch (Exception e) {
            realRoot = root.toAbsolutePath().normalize();
        }
        Path devices = devicesDir(root);
        List<String> names;
        try {
            names = SysfsFiles.list(devices, MAX_ENTRIES);
        } catch (SysfsException e) {
            problems.add(e.toProblem());
            return new HostView(root.toString(), true, List.of(), List.of(), 0, 0, problems);
        }
        Map<Kind, List<String>> byKind = new HashMap<>();
        for (String name : names) {
            byKind.computeIfAbsent(classify(devices.resolve(name), name), k -> new ArrayList<>()).add(name);
        }
        Map<String, List<SysfsService>> services = new HashMap<>();
        for (String name : byKind.getOrDefault(Kind.SERVICE, List.of())) {
            service(devices.resolve(name), name).ifPresent(s ->
                    services.computeIfAbsent(name.substring(0, name.lastIndexOf('.')), k -> new ArrayList<>()).add(s));
        }
        List<SysfsPeer> peers = new ArrayList<>();
        for (String name : byKind.getOrDefault(Kind.XDOMAIN, List.of())) {
            List<SysfsService> own = services.getOrDefault(name, new ArrayList<>());
            own.sort(Comparator.comparingInt(SysfsService::id));
            peer(devices.resolve(name), name, own).ifPresent(peers::add);
        }
        peers.sort(Comparator.comparingInt(SysfsPeer::domain).thenComparingLong(SysfsPeer::route));
        List<String> routers = byKind.getOrDefault(Kind.ROUTER, List.of());
        List<SysfsDomain> domains = new ArrayList<>();
        for (String name : byKind.getOrDefault(Kind.DOMAIN, List.of())) {
            domains.add(domain(devices, name, routers));
        }
        domains.sort(Comparator.comparingInt(SysfsDomain::index));
        return new HostView(root.toString(), true, domains, peers, routers.size(),
                byKind.getOrDefault(Kind.OTHER, List.of()).size(), problems);
    }

    private Kind classify(Path dir, String name) {
        if (!Files.isDirectory(dir)) {
            problems.add(new SysfsProblem(dir.toString(), dir + ": not a device directory (a dangling or looping"
                    + " link, or a file); entry skipped"));
            return Kind.OTHER;
        }
        String devtype = "";
        Path uevent = dir.resolve("uevent");
        if (Files.exists(uevent)) {
            try {
                devtype = Attributes.devtype(uevent);
            } catch (SysfsException e) {
                problems.add(e.toProblem());
            }
        }
        Kind byName = DOMAIN.matcher(name).matches() ? Kind.DOMAIN
                : SERVICE.matcher(name).matches() ? Kind.SERVICE
                : ROUTE.matcher(name).matches() ? (Files.exists(dir.resolve("maxhopid")) ? Kind.XDOMAIN : Kind.ROUTER)
                : Kind.OTHER;
        Kind byType = switch (devtype) {
            case "thunderbolt_domain" -> Kind.DOMAIN;
            case "thunderbolt_device" -> Kind.ROUTER;
            case "thunderbolt_xdomain" -> Kind.XDOMAIN;
            case "thunderbolt_service" -> Kind.SERVICE;
            case "" -> byName;
            default -> Kind.OTHER;
        };
        boolean nameFits = switch (byType) {
            case DOMAIN -> byName == Kind.DOMAIN;
            case ROUTER, XDOMAIN -> byName == Kind.ROUTER || byName == Kind.XDOMAIN;
            case SERVICE -> byName == Kind.SERVICE;
            case OTHER -> true;
        };
        if (!nameFits) {
            problems.add(new SysfsProblem(uevent.toString(), uevent + ": DEVTYPE " + Text.quote(devtype)
                    + " does not fit the device name " + Text.quote(name) + "; entry skipped"));
            return Kind.OTHER;
        }
        return byType;
    }

    private Optional<SysfsPeer> peer(Path dir, String name, List<SysfsService> services) {
        Matcher m = ROUTE.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        UUID uuid;
        try {
            uuid = Attributes.uuid(dir.resolve("unique_id"));
        } catch (SysfsException e) {
            problems.add(new SysfsProblem(e.file().toString(), e.getMessage() + "; peer " + name + " skipped"));
            return Optional.empty();
        }
        OptionalInt vendor = optionalInt(() -> Attributes.hex(dir.resolve("vendor")));
        OptionalInt device = optionalInt(() -> Attributes.hex(dir.resolve("device")));
        OptionalInt maxHopId = optionalInt(() -> Attributes.hopId(dir.resolve("maxhopid")));
        String vendorName = attempt(() -> Attributes.text(dir.resolve("vendor_name"))).orElse("");
        String deviceName = attempt(() -> Attributes.text(dir.resolve("device_name"))).orElse("");
        return Optional.of(new SysfsPeer(name, Integer.parseInt(m.group(1)), Long.parseUnsignedLong(m.group(2), 16),
                uuid, vendor, vendorName, device, deviceName, maxHopId, link(dir), services, nhiPciPath(dir)));
    }

    private Optional<LinkState> link(Path dir) {
        String[] files = {"tx_speed", "tx_lanes", "rx_speed", "rx_lanes"};
        if (Arrays.stream(files).noneMatch(f -> Files.exists(dir.resolve(f)))) {
            problems.add(new SysfsProblem(dir.toString(), dir + ": no rx_speed, rx_lanes, tx_speed or tx_lanes;"
                    + " this kernel does not say what the link negotiated"));
            return Optional.empty();
        }
        Optional<Long> txSpeed = attempt(() -> Attributes.laneMbps(dir.resolve("tx_speed")));
        Optional<Integer> txLanes = attempt(() -> Attributes.lanes(dir.resolve("tx_lanes")));
        Optional<Long> rxSpeed = attempt(() -> Attributes.laneMbps(dir.resolve("rx_speed")));
        Optional<Integer> rxLanes = attempt(() -> Attributes.lanes(dir.resolve("rx_lanes")));
        if (txSpeed.isEmpty() || txLanes.isEmpty() || rxSpeed.isEmpty() || rxLanes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new LinkState(txSpeed.get(), txLanes.get(), rxSpeed.get(), rxLanes.get()));
    }

    private Optional<SysfsService> service(Path dir, String name) {
        Matcher m = SERVICE.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        String key = attempt(() -> Attributes.text(dir.resolve("key"))).orElse("");
        OptionalLong prtcid = optionalLong(() -> Attributes.unsigned(dir.resolve("prtcid")));
        OptionalLong prtcvers = optionalLong(() -> Attributes.unsigned(dir.resolve("prtcvers")));
        OptionalLong prtcrevs = optionalLong(() -> Attributes.unsigned(dir.resolve("prtcrevs")));
        OptionalLong prtcstns = optionalLong(() -> Attributes.settings(dir.resolve("prtcstns")));
        String modalias = attempt(() -> Attributes.text(dir.resolve("modalias"))).orElse("");
        Path driverLink = dir.resolve("driver");
        Optional<String> driver = Files.exists(driverLink, LinkOption.NOFOLLOW_LINKS)
                ? attempt(() -> Text.printable(SysfsFiles.linkTargetName(driverLink))) : Optional.empty();
        Path net = dir.resolve("net");
        List<String> interfaces = Files.exists(net, LinkOption.NOFOLLOW_LINKS)
                ? attempt(() -> SysfsFiles.list(net, MAX_INTERFACES)).orElse(List.of()).stream()
                        .map(Text::printable).toList()
                : List.of();
        return Optional.of(new SysfsService(name, Integer.parseInt(m.group(3)), key, prtcid, prtcvers, prtcrevs,
                prtcstns, modalias, driver, interfaces));
    }

    private SysfsDomain domain(Path devices, String name, List<String> routers) {
        Matcher m = DOMAIN.matcher(name);
        int index = m.matches() ? Integer.parseInt(m.group(1)) : -1;
        String hostRouter = index + "-0";
        Optional<UUID> uuid = routers.contains(hostRouter)
                ? attempt(() -> Attributes.uuid(devices.resolve(hostRouter).resolve("unique_id")))
                : Optional.empty();
        return new SysfsDomain(name, index, uuid, nhiPciPath(devices.resolve(name)));
    }

    /**
     * The PCI device a bus entry hangs off. The kernel makes each domain a child of its NHI's PCI device, and every
     * router and XDomain device a descendant of the domain, so the bus entry's link resolves to
     * {@code /sys/devices/<pci path>/<nhi>/domainN/...}: the directory above {@code domainN} is the NHI.
     */
    private Optional<String> nhiPciPath(Path entry) {
        if (!Files.isSymbolicLink(entry)) {
            return Optional.empty();
        }
        Path real;
        try {
            real = SysfsFiles.realPath(entry);
        } catch (SysfsException e) {
            problems.add(e.toProblem());
            return Optional.empty();
        }
        for (Path p = real; p != null && p.getParent() != null; p = p.getParent()) {
            Path fileName = p.getFileName();
            if (fileName != null && DOMAIN.matcher(fileName.toString()).matches()) {
                Path nhi = p.getParent();
                Path nhiName = nhi.getFileName();
                if (nhiName == null || !PCI_ADDRESS.matcher(nhiName.toString()).matches()) {
                    return Optional.empty();
                }
                if (!nhi.startsWith(realRoot)) {
                    problems.add(new SysfsProblem(entry.toString(), entry + ": links outside the root, to "
                            + Text.quote(nhi.toString())));
                    return Optional.empty();
                }
                StringBuilder hostPath = new StringBuilder();
                for (Path part : realRoot.relativize(nhi)) {
                    hostPath.append('/').append(part);
                }
                return Optional.of(Text.printable(hostPath.toString()));
            }
        }
        return Optional.empty();
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read() throws SysfsException;
    }

    private <T> Optional<T> attempt(Reader<T> reader) {
        try {
            return Optional.of(reader.read());
        } catch (SysfsException e) {
            problems.add(e.toProblem());
            return Optional.empty();
        }
    }

    private OptionalInt optionalInt(Reader<Integer> reader) {
        return attempt(reader).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    private OptionalLong optionalLong(Reader<Long> reader) {
        return attempt(reader).map(OptionalLong::of).orElse(OptionalLong.empty());
    }
}
