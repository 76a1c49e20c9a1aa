package io.xdlink.bench;

import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * Bandwidth over 127.0.0.1 in one run ({@link SideBySide}), one mebibyte per operation: a plain socket blast with
 * blocking writes, the same with non-blocking sockets waiting as xdlink waits, the bare TCP rail's 4096-byte frames,
 * and xdlink WRITEs over one TCP rail, using {@link TcpBandwidthBench}'s states so the code measured is the JMH
 * benchmark's. The target's ratio is taken per round: xdlink's MiB/s over the plain (blocking) blast of the same round,
 * and again over the quicker of both blasts in that round.
 * Arguments: {@code --rounds N} (default 30), {@code --ops N} mebibytes per way per round (default 256),
 * {@code --warmup-rounds N} (default 3).
 */
public final class TcpBandwidth {
    static final double TARGET = 0.90;

    private TcpBandwidth() {
    }

    public static void main(String[] args) throws Exception {
        SideBySide.Options o = HarnessArgs.orExit(() -> SideBySide.Options.parse("TcpBandwidth", args, 30, 256, 3));
        if (o == null) {
            return;
        }
        TcpBandwidthBench bench = new TcpBandwidthBench();
        TcpBandwidthBench.PlainBlast plain = new TcpBandwidthBench.PlainBlast();
        TcpBandwidthBench.PolledBlast polled = new TcpBandwidthBench.PolledBlast();
        TcpBandwidthBench.RailBlast rail = new TcpBandwidthBench.RailBlast();
        TcpBandwidthBench.XdlinkWrite xdlink = new TcpBandwidthBench.XdlinkWrite();
        SideBySide s;
        try {
            plain.open();
            polled.open();
            rail.open();
            xdlink.open();
            s = SideBySide.run(List.of(
                    new SideBySide.Way("plain blast", () -> {
                        bench.plainSocketBlast(plain);
                        return 1;
                    }),
                    new SideBySide.Way("polled blast", () -> {
                        bench.plainSocketBlastPolled(polled);
                        return 1;
                    }),
                    new SideBySide.Way("bare TCP rail", () -> {
                        bench.tcpRailFrames(rail);
                        return 1;
                    }),
                    new SideBySide.Way("xdlink WRITE", () -> {
                        bench.xdlinkWrite(xdlink);
                        return 1;
                    })), o);
        } finally {
            xdlink.close();
            rail.close();
            polled.close();
            plain.close();
        }
        System.out.println(s.header("1 MiB bandwidth over 127.0.0.1"));
        double mib = o.ops();
        for (int w = 0; w < s.ways(); w++) {
            int way = w;
            double[] rate = s.perRound(r -> mib / (s.roundTotal(way, r) / 1e9));
            TcpLatency.line("  %-14s per round: median %8.0f MiB/s, quartiles %.0f .. %.0f; processor time per MiB "
                    + "%.0f us (both ends)", s.name(w), Quantiles.quantile(rate, 0.5), Quantiles.quantile(rate, 0.25),
                    Quantiles.quantile(rate, 0.75),
                    Quantiles.quantile(s.perRound(r -> s.roundCpuPerOp(way, r)), 0.5) / 1e3);
        }
        for (int w = 2; w < s.ways(); w++) {
            int way = w;
            // The target names a plain socket blast: the blocking one, as a plain program is written.
            ratioLine(s, way, "the plain blast", r -> s.roundTotal(0, r));
            // Stricter, against the quicker blast of each round: the polled one spins on its socket as xdlink does.
            ratioLine(s, way, "the quicker of both blasts", r -> Math.min(s.roundTotal(0, r), s.roundTotal(1, r)));
        }
    }

    private static void ratioLine(SideBySide s, int way, String against, IntToDoubleFunction base) {
        double[] ratio = s.perRound(r -> base.applyAsDouble(r) / s.roundTotal(way, r));
        double median = Quantiles.quantile(ratio, 0.5);
        TcpLatency.line("  %s over %s, per round: median %.1f%%, quartiles %.1f%% .. %.1f%% (target >= %.0f%%): %s",
                s.name(way), against, median * 100, Quantiles.quantile(ratio, 0.25) * 100,
                Quantiles.quantile(ratio, 0.75) * 100, TARGET * 100, median >= TARGET ? "MET" : "MISSED");
    }
}
