package io.xdlink.cli.bench;

import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.verbs.RailStats;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@code xdlink bench} prints: perftest's banner with xdlink's own lines (device, the link each cable
 * negotiated, which rail runs on which cable), the table, and the raw baseline with its ratio. Both sides print
 * through this, from the same numbers, so their tables are identical.
 */
final class BenchOutput {
    private final PrintWriter out;
    private final BenchSettings s;

    BenchOutput(PrintWriter out, BenchSettings s) {
        this.out = out;
        this.s = s;
    }

    /**
     * The banner, once the queue pairs are connected and the rails known. Its Mtu is the largest frame the device
     * sends ({@code frame_bytes}): the unit a rail moves, as a path MTU is a network's.
     */
    void banner(String device, String linkType, PeerInfo peer, List<RailStats> rails, String stripeMin,
                int frameBytes) {
        List<String[]> lines = new ArrayList<>();
        lines.add(kv("Dual-port", "OFF"));
        lines.add(kv("Device", device));
        lines.add(kv("Number of qps", Integer.toString(s.qps())));
        lines.add(kv("Transport type", "xdlink rails"));
        lines.add(kv("Connection type", "RC"));
        lines.add(kv("Using SRQ", "OFF"));
        lines.add(kv("TX depth", Integer.toString(s.txDepth())));
        if (s.test().isBandwidth()) {
            lines.add(kv("CQ Moderation", Integer.toString(s.cqMod())));
        }
        lines.add(kv("Mtu", frameBytes + "[B]"));
        lines.add(kv("Link type", linkType));
        if (peer != null) {
            lines.add(kv("Peer", peer.name() + " (" + peer.domain() + ")"));
            for (LinkInfo l : peer.links()) {
                lines.add(kv("Link " + l.id(), l.state().describe() + " via " + l.localPort()));
            }
        }
        for (RailStats r : rails) {
            lines.add(kv("Rail " + r.number(), r.name() + " on cable " + r.linkId()));
        }
        lines.add(kv("Stripe min", stripeMin));
        lines.add(kv("Data ex. method", "Ethernet"));
        out.print(PerftestTable.banner(s.test().title(), lines));
        if (s.test().isBandwidth() && s.durationMode()) {
            out.println(PerftestTable.PEAK_WARNING);
        }
    }

    private static String[] kv(String k, String v) {
        return new String[] {k, v};
    }

    void header() {
        if (s.test().isBandwidth()) {
            out.println(PerftestTable.bwHeader(s.unit()));
        } else if (s.durationMode()) {
            out.println(PerftestTable.latencyDurationHeader());
        } else {
            out.println(PerftestTable.latencyHeader());
        }
    }

    void row(BenchResult r) {
        out.println(r.row());
        out.flush();
    }

    void end() {
        out.println(PerftestTable.RESULT_LINE);
        out.flush();
    }

    /** The raw baseline's rows and, per size, the ratio xdlink / raw (bandwidth) or raw / xdlink (latency). */
    void baseline(String path, List<BenchResult> xdlink, List<BenchResult> raw) {
        out.println(" Baseline        : " + path);
        header();
        for (BenchResult r : raw) {
            out.println(r.row());
        }
        out.println(PerftestTable.RESULT_LINE);
        for (int i = 0; i < Math.min(xdlink.size(), raw.size()); i++) {
            BenchResult x = xdlink.get(i);
            BenchResult b = raw.get(i);
            out.println(" " + CFormat.left(x.size(), 7) + "    xdlink/raw " + (s.test().isBandwidth()
                    ? "bandwidth: " + CFormat.fixed(x.figure() / b.figure(), 2)
                    : "latency: " + CFormat.fixed(x.figure() / b.figure(), 2) + " (lower is better)"));
        }
        out.println(PerftestTable.RESULT_LINE);
        out.flush();
    }

    /**
     * How busy the host was over the run and what the hypervisor took, under the table; with a warning on
     * {@code err} when that was enough to make one run's figure unreliable. Nothing when /proc could not say.
     */
    void host(Optional<HostLoad> load, PrintWriter err) {
        load.ifPresent(h -> {
            out.println(h.line());
            out.flush();
            h.warning().ifPresent(w -> {
                err.println("xdlink: warning: " + w);
                err.flush();
            });
        });
    }
}
