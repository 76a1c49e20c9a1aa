package io.xdlink.bench;

import java.util.List;
import java.util.Locale;

/**
 * The 2-byte round trip over 127.0.0.1 three ways in one run ({@link SideBySide}): a plain socket ping-pong, the
 * bare TCP rail's frames, and xdlink WRITEs answered by WRITEs through the whole stack, using
 * {@link TcpLatencyBench}'s states so the code measured is the JMH benchmark's. The target's ratio is taken per
 * round (xdlink's median round trip over the plain socket's of the same round) and reported as a median with
 * quartiles. Arguments: {@code --rounds N} (default 60), {@code --ops N} round trips per way per round (default
 * 2000), {@code --warmup-rounds N} (default 5).
 */
public final class TcpLatency {
    static final double TARGET = 1.5;

    private TcpLatency() {
    }

    public static void main(String[] args) throws Exception {
        SideBySide.Options o = HarnessArgs.orExit(() -> SideBySide.Options.parse("TcpLatency", args, 60, 2000, 5));
        if (o == null) {
            return;
        }
        TcpLatencyBench bench = new TcpLatencyBench();
        TcpLatencyBench.PlainPingPong plain = new TcpLatencyBench.PlainPingPong();
        TcpLatencyBench.RailPingPong rail = new TcpLatencyBench.RailPingPong();
        TcpLatencyBench.XdlinkPingPong xdlink = new TcpLatencyBench.XdlinkPingPong();
        SideBySide s;
        try {
            plain.open();
            rail.open();
            xdlink.open();
            s = SideBySide.run(List.of(
                    new SideBySide.Way("plain socket", () -> bench.plainPingPong(plain)),
                    new SideBySide.Way("bare TCP rail", () -> bench.tcpRailPingPong(rail)),
                    new SideBySide.Way("xdlink WRITE", () -> bench.xdlinkWritePingPong(xdlink))), o);
        } finally {
            xdlink.close();
            rail.close();
            plain.close();
        }
        System.out.println(s.header("2-byte round trips over 127.0.0.1"));
        for (int w = 0; w < s.ways(); w++) {
            int way = w;
            long[] all = s.sorted(w);
            line("  %-14s round trip median %8.2f us  p90 %8.2f us  p99 %9.2f us; processor time per round trip "
                    + "%.2f us", s.name(w), Quantiles.percentile(all, 0.5) / 1e3, Quantiles.percentile(all, 0.9) / 1e3,
                    Quantiles.percentile(all, 0.99) / 1e3,
                    Quantiles.quantile(s.perRound(r -> s.roundCpuPerOp(way, r)), 0.5) / 1e3);
        }
        for (int w = 1; w < s.ways(); w++) {
            int way = w;
            double[] ratio = s.perRound(r -> s.roundMedian(way, r) / s.roundMedian(0, r));
            double median = Quantiles.quantile(ratio, 0.5);
            line("  %s over plain socket, per round: median %.2fx, quartiles %.2fx .. %.2fx (target <= %.1fx): %s",
                    s.name(w), median, Quantiles.quantile(ratio, 0.25), Quantiles.quantile(ratio, 0.75), TARGET,
                    median <= TARGET ? "MET" : "MISSED");
        }
    }

    static void line(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
