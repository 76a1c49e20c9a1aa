package io.xdlink.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.Arrays;

/**
 * nccl-tests' measuring loop over a {@link SimCluster}: sizes from {@code minBytes} to {@code maxBytes} by
 * {@code factor}, after {@code warmup} untimed runs of the largest; for each size, out of place then in place,
 * {@code iters} timed runs
 * one after another (each starts when the last host finished the one before), the first of them on freshly
 * filled inputs and, with {@code check}, checked element by element on every host (if it fails, the next that
 * succeeds is). Only runs that succeeded count in the time. Times are virtual.
 *
 * @param pull a cable to pull during the first timed out-of-place run of the largest size, or null
 */
public record PerfRun(Collective collective, DataType type, RedOp op, int root, long minBytes, long maxBytes,
                      double factor, int iters, int warmup, boolean check, Pull pull) {

    /** A cable pulled {@code atNanos} into a run, plugged back once the run ended. */
    public record Pull(String cable, long atNanos) {
    }

    public PerfRun {
        if (minBytes < 0 || maxBytes < minBytes) {
            throw new IllegalArgumentException("sizes must run from -b up to -e: " + minBytes + ".." + maxBytes);
        }
        if (!(factor > 1)) {
            throw new IllegalArgumentException("-f must be above 1, not " + factor);
        }
        if (iters < 1 || warmup < 0) {
            throw new IllegalArgumentException("-n must be at least 1 and -w at least 0");
        }
    }

    /** The sizes this run measures. */
    public List<Long> sizes() {
        List<Long> out = new ArrayList<>();
        for (double s = Math.max(minBytes, 0); s <= maxBytes; s = Math.max(s * factor, s + 1)) {
            out.add((long) s);
        }
        return out;
    }

    /** What one placement of one size measured. */
    public record Measure(double timeUs, double algbw, double busbw, long wrong, String error) {
    }

    /** One line of the table. */
    public record Row(long size, long count, Measure outOfPlace, Measure inPlace) {
    }

    /** What happened to a pulled cable: who saw what, and whether the next collective succeeded. */
    public record PullReport(String cable, long size, List<SimCluster.HostOutcome> hosts, boolean recovered,
                             String recovery) {
    }

    /** The whole run. */
    public record Result(List<Row> rows, Bound bound, List<PullReport> pulls) {
        /** nccl-tests' closing figure: the mean busbw over every row's out-of-place and in-place runs. */
        public double averageBusbw() {
            double sum = 0;
            int k = 0;
            for (Row r : rows) {
                sum += r.outOfPlace().busbw() + r.inPlace().busbw();
                k += 2;
            }
            return k == 0 ? 0 : sum / k;
        }

        public long wrong() {
            return rows.stream().mapToLong(r -> Math.max(0, r.outOfPlace().wrong()) + Math.max(0, r.inPlace().wrong()))
                    .sum();
        }
    }

    /** Measures on {@code cluster}, handing each row to {@code onRow} as it is done. */
    public Result run(SimCluster cluster, Consumer<Row> onRow) throws Exception {
        int n = cluster.hostCount();
        List<Long> sizes = sizes();
        long largest = collective.alignedSize(sizes.isEmpty() ? 0 : sizes.getLast(), n, type);
        CollectiveRun run = new CollectiveRun(cluster, collective, type, op, root, largest);
        Bound bound = Bound.of(cluster, collective);
        List<Row> rows = new ArrayList<>();
        List<PullReport> pulls = new ArrayList<>();
        if (warmup > 0 && largest > 0) {
            for (int i = 0; i < warmup; i++) {
                run.run(largest, false, List.of());
            }
        }
        for (long requested : sizes) {
            long size = collective.alignedSize(requested, n, type);
            Measure[] m = new Measure[2];
            for (int place = 0; place < 2; place++) {
                boolean inPlace = place == 1;
                boolean pullHere = pull != null && !inPlace && size == largest && pulls.isEmpty();
                m[place] = measure(cluster, run, size, inPlace, pullHere ? pull : null, pulls);
            }
            Row row = new Row(size, size / type.bytes(), m[0], m[1]);
            rows.add(row);
            onRow.accept(row);
        }
        return new Result(rows, bound, pulls);
    }

    private Measure measure(SimCluster cluster, CollectiveRun run, long size, boolean inPlace, Pull pullNow,
                            List<PullReport> pulls) throws Exception {
        int n = cluster.hostCount();
        if (size == 0) {
            return new Measure(0, 0, 0, 0, null);
        }
        long total = 0;
        int timed = 0;
        int failed = 0;
        long wrong = -1;
        // The first run is checked; when it fails (a pulled cable), the next one that succeeds is.
        boolean checkPending = check;
        String error = null;
        for (int i = 0; i < iters; i++) {
            if (i == 0 || checkPending) {
                run.fill(size, inPlace);
            }
            List<SimCluster.Fault> faults = List.of();
            if (i == 0 && pullNow != null) {
                faults = List.of(new SimCluster.Fault(pullNow.atNanos(),
                        () -> cluster.cable(pullNow.cable()).unplug()));
            }
            SimCluster.Outcome o = run.run(size, inPlace, faults);
            if (i == 0 && pullNow != null) {
                pulls.add(recover(cluster, run, size, pullNow, o));
            }
            if (!o.ok()) {
                failed++;
                error = failed + " of " + iters + " timed runs failed (" + o.failed().size() + " of " + n
                        + " hosts)";
                if (pullNow == null) {
                    cluster.reconnect();
                }
                continue;
            }
            if (checkPending) {
                boolean[] all = new boolean[n];
                Arrays.fill(all, true);
                wrong = run.wrong(size, inPlace, all);
                checkPending = false;
            }
            total += o.nanos();
            timed++;
        }
        if (timed == 0) {
            return new Measure(0, 0, 0, wrong, error);
        }
        double us = total / 1000.0 / timed;
        double algbw = size / (us * 1000.0);
        return new Measure(us, algbw, algbw * collective.busFactor(n), wrong, error);
    }

    /** Plugs the pulled cable back and runs the collective once more, checked, to see the cluster recovered. */
    private PullReport recover(SimCluster cluster, CollectiveRun run, long size, Pull p, SimCluster.Outcome o)
            throws Exception {
        if (o.ok()) {
            // Another cable between the same hosts carried on: nothing failed, nothing to replace.
            cluster.cable(p.cable()).plug();
            cluster.settleAgain(cluster.cable(p.cable()));
        } else {
            cluster.replug(cluster.cable(p.cable()));
        }
        run.fill(size, false);
        SimCluster.Outcome again = run.run(size, false, List.of());
        boolean[] done = new boolean[cluster.hostCount()];
        Arrays.fill(done, true);
        long wrong = again.ok() ? run.wrong(size, false, done) : -1;
        String recovery = again.ok() ? "plugged back; the next " + collective.label() + " of " + size
                + " bytes succeeded on every host, " + wrong + " wrong elements"
                : "plugged back; the next run failed too: " + again.failed();
        return new PullReport(p.cable(), size, o.hosts(), again.ok() && wrong == 0, recovery);
    }
}
