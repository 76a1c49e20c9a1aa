package io.xdlink.cli.host;

import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.sysfs.HostView;
import io.xdlink.xdomain.sysfs.LinkDiagnosis;
import io.xdlink.xdomain.sysfs.LinkStateText;
import io.xdlink.xdomain.sysfs.ServiceText;
import io.xdlink.xdomain.sysfs.SysfsDomain;
import io.xdlink.xdomain.sysfs.SysfsPeer;
import io.xdlink.xdomain.sysfs.SysfsProblem;
import io.xdlink.xdomain.sysfs.SysfsService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** Renders a {@link HostView} as the topology listing, in text for people and JSON for programs. */
public final class TopologyReport {
    private TopologyReport() {
    }

    /** The sentence for a host without the bus, shared with doctor so both say it the same way. */
    public static String noHardware(HostView view) {
        return "no USB4 hardware: " + busPath(view) + " does not exist, so this host has no USB4 or Thunderbolt"
                + " controller with its driver (thunderbolt) loaded";
    }

    static String busPath(HostView view) {
        return (view.root().endsWith("/") ? view.root() : view.root() + "/") + "sys/bus/thunderbolt";
    }

    public static String text(HostView view) {
        StringBuilder sb = new StringBuilder();
        if (!view.busPresent()) {
            sb.append(capitalise(noHardware(view))).append(".\n");
            return sb.toString();
        }
        sb.append("USB4 bus under ").append(view.root()).append(": ").append(count(view.domains().size(), "domain"))
                .append(", ").append(count(view.peers().size(), "peer")).append(", ")
                .append(count(view.routers(), "router")).append('\n');
        for (SysfsDomain d : view.domains()) {
            sb.append(d.name()).append(": host UUID ")
                    .append(d.hostUuid().map(Object::toString).orElse("unknown")).append(", NHI ")
                    .append(d.nhiPciPath().orElse("unknown")).append('\n');
        }
        if (view.peers().isEmpty()) {
            sb.append("No XDomain peers: no other host is connected over USB4.\n");
        }
        for (SysfsPeer p : view.peers()) {
            sb.append('\n').append(p.name()).append("  ")
                    .append(p.deviceName().isEmpty() ? "(no name)" : p.deviceName()).append('\n');
            row(sb, "vendor", (p.vendorName().isEmpty() ? "" : p.vendorName() + " ") + "(" + hex(p.vendorId())
                    + "), device " + hex(p.deviceId()));
            row(sb, "UUID", p.uniqueId().toString());
            if (p.link().isPresent()) {
                LinkState l = p.link().get();
                row(sb, "rx", l.rxLanes() + " x " + LinkStateText.gbps(l.rxLaneMbps()) + " = "
                        + LinkStateText.gbps(l.rxMbps()));
                row(sb, "tx", l.txLanes() + " x " + LinkStateText.gbps(l.txLaneMbps()) + " = "
                        + LinkStateText.gbps(l.txMbps()));
                row(sb, "bonded", (l.bonded() ? "yes" : "no") + " ("
                        + l.generation().map(g -> g.label() + ", ").orElse("")
                        + (l.bonded() ? "two lanes each way" : l.txLanes() == 1 && l.rxLanes() == 1
                                ? "single lane" : "asymmetric") + ")");
            } else {
                row(sb, "link", "speed and lanes unknown (see problems)");
            }
            row(sb, "max HopID", p.maxHopId().isPresent() ? Integer.toString(p.maxHopId().getAsInt()) : "unknown");
            row(sb, "PCI path", p.hostRouterPciPath().orElse("unknown"));
            if (p.services().isEmpty()) {
                row(sb, "services", "none");
            }
            for (SysfsService s : p.services()) {
                row(sb, "service", s.name() + " " + (s.key().isEmpty() ? "(no key)" : s.key()) + ": protocol "
                        + ServiceText.protocol(s) + ", driver " + s.driver().orElse("none")
                        + (s.netInterfaces().isEmpty() ? "" : ", interface " + String.join(", ", s.netInterfaces())));
            }
            p.link().flatMap(LinkDiagnosis::linkWarning).ifPresent(w -> row(sb, "warning", w));
        }
        if (!view.problems().isEmpty()) {
            sb.append("\nProblems reading the bus:\n");
            for (SysfsProblem pr : view.problems()) {
                sb.append("  ").append(pr.message()).append('\n');
            }
        }
        return sb.toString();
    }

    public static Map<String, Object> json(HostView view) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("root", view.root());
        m.put("usb4", view.busPresent());
        if (!view.busPresent()) {
            m.put("message", noHardware(view));
        }
        List<Object> domains = new ArrayList<>();
        for (SysfsDomain d : view.domains()) {
            Map<String, Object> dm = new LinkedHashMap<>();
            dm.put("name", d.name());
            dm.put("hostUuid", d.hostUuid().map(Object::toString));
            dm.put("nhiPciPath", d.nhiPciPath());
            domains.add(dm);
        }
        m.put("domains", domains);
        List<Object> peers = new ArrayList<>();
        for (SysfsPeer p : view.peers()) {
            peers.add(peer(p));
        }
        m.put("peers", peers);
        m.put("routers", view.routers());
        m.put("problems", view.problems().stream().map(SysfsProblem::message).toList());
        return m;
    }

    private static Map<String, Object> peer(SysfsPeer p) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("name", p.name());
        pm.put("deviceName", p.deviceName());
        pm.put("deviceId", p.deviceId());
        pm.put("vendorName", p.vendorName());
        pm.put("vendorId", p.vendorId());
        pm.put("uuid", p.uniqueId().toString());
        pm.put("maxHopId", p.maxHopId());
        pm.put("pciPath", p.hostRouterPciPath());
        if (p.link().isPresent()) {
            LinkState l = p.link().get();
            Map<String, Object> lm = new LinkedHashMap<>();
            lm.put("generation", l.generation().map(g -> g.label()));
            lm.put("rx", direction(l.rxLanes(), l.rxLaneMbps()));
            lm.put("tx", direction(l.txLanes(), l.txLaneMbps()));
            lm.put("bonded", l.bonded());
            lm.put("rateMbps", l.rateMbps());
            pm.put("link", lm);
        } else {
            pm.put("link", null);
        }
        List<Object> services = new ArrayList<>();
        for (SysfsService s : p.services()) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("name", s.name());
            sm.put("key", s.key());
            sm.put("protocolId", s.protocolId());
            sm.put("version", s.version());
            sm.put("revision", s.revision());
            sm.put("settings", s.settings().isPresent() ? String.format("0x%08x", s.settings().getAsLong()) : null);
            sm.put("modalias", s.modalias());
            sm.put("driver", s.driver());
            sm.put("interfaces", s.netInterfaces());
            services.add(sm);
        }
        pm.put("services", services);
        pm.put("warnings", p.link().flatMap(LinkDiagnosis::linkWarning).stream().toList());
        return pm;
    }

    private static Map<String, Object> direction(int lanes, long laneMbps) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lanes", lanes);
        m.put("laneMbps", laneMbps);
        m.put("mbps", lanes * laneMbps);
        return m;
    }

    private static void row(StringBuilder sb, String label, String value) {
        sb.append("  ").append(String.format("%-10s", label)).append(' ').append(value).append('\n');
    }

    private static String hex(OptionalInt v) {
        return v.isPresent() ? "0x" + Integer.toHexString(v.getAsInt()) : "unknown";
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
