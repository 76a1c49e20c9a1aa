package io.xdlink.cli.bench;

import java.util.List;

/**
 * Bandwidth statistics computed as perftest's {@code print_report_bw} computes them.
 *
 * <p>Times are nanoseconds: {@code posted[i]} when message i was posted, {@code completed[i]} when its completion was
 * seen. Average = size x iterations / (completed[last] - posted[0]). Peak = size / the smallest per-message time over
 * windows from posted[i] to completed[j], with j only at completion-moderation boundaries (every {@code cqMod}-th
 * message, plus the last), because only those completions are really observed. Per-window times are divided in
 * integer nanoseconds, as perftest divides integer cycles.
 */
public final class BwStatistics {
    /** perftest does not measure a peak beyond this many iterations: the search is quadratic. */
    public static final int PEAK_ITERATION_LIMIT = 20_000;

    private BwStatistics() {
    }

    /**
     * @param size      bytes per message
     * @param posted    post times, ns, one per message
     * @param completed completion times, ns, one per message
     * @param count     messages measured (a prefix of the arrays)
     * @param cqMod     completion moderation (perftest's {@code -Q}, default 100)
     * @param measurePeak false in duration mode
     */
    public static BwResult compute(long size, long[] posted, long[] completed, int count, int cqMod,
                                   boolean measurePeak, ReportUnit unit) {
        if (count < 1 || count > posted.length || count > completed.length) {
            throw new IllegalArgumentException("need 1.." + Math.min(posted.length, completed.length)
                    + " samples, got " + count);
        }
        if (cqMod < 1) {
            throw new IllegalArgumentException("cq moderation must be at least 1: " + cqMod);
        }
        boolean peakOn = measurePeak && count <= PEAK_ITERATION_LIMIT;
        long optDelta = completed[0] - posted[0];
        if (peakOn) {
            for (int i = 0; i < count; i++) {
                for (int j = roundUp(i + 1, cqMod) - 1; j < count; j += cqMod) {
                    optDelta = Math.min(optDelta, (completed[j] - posted[i]) / (j - i + 1));
                }
                if (count % cqMod != 0) {
                    int j = count - 1;
                    optDelta = Math.min(optDelta, (completed[j] - posted[i]) / (j - i + 1));
                }
            }
        }
        double elapsedNs = completed[count - 1] - posted[0];
        double ff = unit.bytesPerUnitSecond();
        double average = (double) size * count * 1e9 / (elapsedNs * ff);
        double msgRate = (double) count * 1e9 / (elapsedNs * 1_000_000);
        double peak = peakOn ? (double) size * 1e9 / ((double) optDelta * ff) : 0;
        return new BwResult(size, count, peak, average, msgRate, unit, peakOn);
    }

    /**
     * Duration mode: {@code count} messages completed in the {@code elapsedNs} between the sampling marks; no peak,
     * as in perftest.
     */
    public static BwResult duration(long size, long count, long elapsedNs, ReportUnit unit) {
        if (count < 1 || elapsedNs <= 0) {
            throw new IllegalArgumentException("no messages completed in the sampling window");
        }
        double ff = unit.bytesPerUnitSecond();
        return new BwResult(size, count, 0, (double) size * count * 1e9 / (elapsedNs * ff),
                (double) count * 1e9 / (elapsedNs * 1_000_000.0), unit, false);
    }

    /**
     * One row from runs of the same size made in turns ({@code --turns}): the average and message rate over their
     * messages and their summed times, the time with the other side's turns left out; the peak is the best turn's,
     * and is shown only when every turn measured one.
     */
    public static BwResult combine(List<BwResult> turns) {
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("no turns to combine");
        }
        BwResult first = turns.getFirst();
        long count = 0;
        double elapsedNs = 0;
        double peak = 0;
        boolean peakMeasured = true;
        for (BwResult t : turns) {
            if (t.size() != first.size() || t.unit() != first.unit()) {
                throw new IllegalArgumentException("turns of different sizes or units: " + first + ", " + t);
            }
            count += t.iterations();
            // The message rate is iterations over the turn's time, in millions per second.
            elapsedNs += t.iterations() * 1000.0 / t.msgRateMpps();
            peak = Math.max(peak, t.peak());
            peakMeasured &= t.peakMeasured();
        }
        double ff = first.unit().bytesPerUnitSecond();
        return new BwResult(first.size(), count, peakMeasured ? peak : 0,
                (double) first.size() * count * 1e9 / (elapsedNs * ff), count * 1000.0 / elapsedNs, first.unit(),
                peakMeasured);
    }

    private static int roundUp(int value, int multiple) {
        return ((value + multiple - 1) / multiple) * multiple;
    }
}
