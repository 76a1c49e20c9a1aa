package io.xdlink.bench;

import java.util.List;

/**
 * The simulator's unpaced bandwidth target taken in turns within one run ({@link SideBySide}): {@code
 * MemorySegment.copy}, frames through the simulated rail alone, and WRITEs through the rails engine, each moving the
 * same bytes per operation, using {@link SimBandwidthBench}'s states so the code measured is the JMH benchmark's. The
 * target's ratio (WRITE MiB/s over copy MiB/s, at least 50%) is taken within each round, so both figures of a ratio
 * see the same machine: JMH measures the copy and the WRITE in forks minutes apart, and on a shared machine what the
 * other processor runs in between (a build sweeping the shared cache) moves a ratio by more than the target's margin.
 * Runs a cache-resident mebibyte and 16 MiB. Arguments: {@code --rounds N} (default 40), {@code --ops N} mebibytes
 * per way per round (default 256; a 16 MiB operation counts as 16), {@code --warmup-rounds N} (default 40: the
 * compiler needs a few seconds of each way before its figures settle).
 */
public final class SimBandwidth {
    static final double TARGET = 0.50;

    private SimBandwidth() {
    }

    public static void main(String[] args) throws Exception {
        SideBySide.Options o = HarnessArgs.orExit(() -> SideBySide.Options.parse("SimBandwidth", args, 40, 256, 40));
        if (o == null) {
            return;
        }
        for (int mib : new int[] {1, 16}) {
            run(mib, new SideBySide.Options(o.rounds(), Math.max(1, o.ops() / mib), o.warmups()));
        }
    }

    private static void run(int mib, SideBySide.Options o) throws Exception {
        int bytes = mib << 20;
        SimBandwidthBench bench = new SimBandwidthBench();
        SimBandwidthBench.Copy copy = new SimBandwidthBench.Copy();
        SimBandwidthBench.UnpacedRail rail = new SimBandwidthBench.UnpacedRail();
        SimBandwidthBench.Unpaced write = new SimBandwidthBench.Unpaced();
        copy.bytes = bytes;
        rail.bytes = bytes;
        write.bytes = bytes;
        SideBySide s;
        // Each state is closed only once it was opened: a failed open leaves nothing half made behind it.
        copy.open();
        try {
            rail.open();
        } catch (Exception e) {
            copy.close();
            throw e;
        }
        try {
            write.open();
        } catch (Exception e) {
            rail.close();
            copy.close();
            throw e;
        }
        try {
            s = SideBySide.run(List.of(
                    new SideBySide.Way("MemorySegment.copy", () -> bench.memorySegmentCopy(copy)),
                    new SideBySide.Way("simulated rail", () -> bench.unpacedSimFrames(rail)),
                    new SideBySide.Way("simulated WRITE", () -> bench.unpacedSimWrite(write))), o);
        } finally {
            write.close();
            rail.close();
            copy.close();
        }
        System.out.println(s.header(mib + " MiB per operation, unpaced"));
        for (int w = 0; w < s.ways(); w++) {
            int way = w;
            double[] rate = s.perRound(r -> (double) mib * o.ops() / (s.roundTotal(way, r) / 1e9));
            // No processor time here: every way runs on this one thread, and rounds of tens of milliseconds are
            // below what the process's processor clock resolves.
            TcpLatency.line("  %-18s per round: median %6.0f MiB/s, quartiles %.0f .. %.0f", s.name(w),
                    Quantiles.quantile(rate, 0.5), Quantiles.quantile(rate, 0.25), Quantiles.quantile(rate, 0.75));
        }
        for (int w = 1; w < s.ways(); w++) {
            int way = w;
            double[] ratio = s.perRound(r -> s.roundTotal(0, r) / s.roundTotal(way, r));
            double median = Quantiles.quantile(ratio, 0.5);
            TcpLatency.line("  %s over MemorySegment.copy, per round: median %.1f%%, quartiles %.1f%% .. %.1f%% "
                            + "(target >= %.0f%%): %s", s.name(way), median * 100, Quantiles.quantile(ratio, 0.25) * 100,
                    Quantiles.quantile(ratio, 0.75) * 100, TARGET * 100,
                    way == s.ways() - 1 ? (median >= TARGET ? "MET" : "MISSED") : "(no target)");
        }
    }
}
