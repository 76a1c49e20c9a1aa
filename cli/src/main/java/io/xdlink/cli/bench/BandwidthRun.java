package io.xdlink.cli.bench;

import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.QueuePair;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The client's half of write_bw and send_bw, as perftest's {@code run_iter_bw} runs it: every queue pair keeps up to
 * TX-depth requests posted, one in every {@code cqMod} is signalled (and each queue pair's last), and a signalled
 * completion retires its whole batch, whose messages all get that completion's time.
 */
final class BandwidthRun {
    private final BenchEndpoint ep;
    private final BenchSettings s;
    private final long size;

    BandwidthRun(BenchEndpoint ep, BenchSettings s, long size) {
        this.ep = ep;
        this.s = s;
        this.size = size;
    }

    /** Runs the configured iterations (or duration) and returns the row. */
    BwResult run() {
        return s.durationMode() ? runFor(s.duration()) : runIterations(s.iterations());
    }

    /** One turn of a run in turns with the baseline ({@code --turns}): {@code perQp} messages per queue pair. */
    BwResult turn(long perQp) {
        return runIterations(perQp);
    }

    /**
     * perftest's {@code --perform_warm_up}: the same transfer, unmeasured, so the row that follows times a warm
     * path rather than class loading, compilation and the first touch of every buffer. It runs in rounds at
     * {@code pace} until the rate stops climbing ({@link WarmUpPlateau}); every request completes before the measured
     * run starts.
     */
    void warmUp(WarmUpPlateau.Pace pace, LongSupplier peerCompilerMillis) {
        WarmUpPlateau.run(pace, WarmUpPlateau.firstRound(WARM_UP_FIRST_MESSAGES, size), s.txDepth(),
                peerCompilerMillis, this::runIterations);
    }

    /** Messages per queue pair in a warm-up's first round. */
    static final long WARM_UP_FIRST_MESSAGES = 256;

    private BwResult runIterations(long perQp) {
        List<QueuePair> qps = ep.qps();
        int q = qps.size();
        int total = Math.toIntExact(perQp * q);
        long[] posted = new long[total];
        long[] completed = new long[total];
        long[] scnt = new long[q];
        long[] ccnt = new long[q];
        int totS = 0;
        int totC = 0;
        long lastProgress = System.nanoTime();
        BenchDevice.Pacer spin = ep.pacer();
        while (totC < total) {
            int work = 0;
            for (int i = 0; i < q && totS < total; i++) {
                while (scnt[i] < perQp && scnt[i] - ccnt[i] < s.txDepth()) {
                    boolean signaled = (scnt[i] + 1) % s.cqMod() == 0 || scnt[i] + 1 == perQp;
                    if (!post(qps.get(i), i, scnt[i] + 1, signaled)) {
                        break;
                    }
                    posted[totS++] = System.nanoTime();
                    scnt[i]++;
                    work++;
                }
            }
            Completion c;
            while ((c = ep.poll()) != null) {
                int i = (int) (c.wrId() >>> 48);
                long through = c.wrId() & 0xffff_ffff_ffffL;
                int batch = (int) (through - ccnt[i]);
                ccnt[i] = through;
                long now = System.nanoTime();
                for (int k = 0; k < batch; k++) {
                    completed[totC++] = now;
                }
                work++;
            }
            long now = System.nanoTime();
            if (work > 0) {
                lastProgress = now;
            } else if (now - lastProgress > s.timeout().toNanos()) {
                throw stalled(totC, total);
            }
            spin.idle(work);
        }
        return BwStatistics.compute(size, posted, completed, total, s.cqMod(), true, s.unit());
    }

    private BwResult runFor(Duration duration) {
        List<QueuePair> qps = ep.qps();
        int q = qps.size();
        long[] scnt = new long[q];
        long[] ccnt = new long[q];
        long start = System.nanoTime();
        long margin = Math.min(Duration.ofSeconds(2).toNanos(), duration.toNanos() / 4);
        long sampleFrom = start + margin;
        long sampleTo = start + duration.toNanos() - margin;
        long end = start + duration.toNanos();
        long completedTotal = 0;
        long c0 = -1;
        long t0 = 0;
        long c1 = -1;
        long t1 = 0;
        long lastProgress = start;
        BenchDevice.Pacer spin = ep.pacer();
        while (true) {
            long now = System.nanoTime();
            boolean posting = now < end;
            int work = 0;
            for (int i = 0; i < q && posting; i++) {
                while (scnt[i] - ccnt[i] < s.txDepth()) {
                    boolean signaled = (scnt[i] + 1) % s.cqMod() == 0;
                    if (!post(qps.get(i), i, scnt[i] + 1, signaled)) {
                        break;
                    }
                    scnt[i]++;
                    work++;
                }
            }
            Completion c;
            while ((c = ep.poll()) != null) {
                int i = (int) (c.wrId() >>> 48);
                long through = c.wrId() & 0xffff_ffff_ffffL;
                completedTotal += through - ccnt[i];
                ccnt[i] = through;
                work++;
            }
            now = System.nanoTime();
            if (c0 < 0 && now >= sampleFrom) {
                c0 = completedTotal;
                t0 = now;
            }
            if (c1 < 0 && now >= sampleTo) {
                c1 = completedTotal;
                t1 = now;
            }
            if (!posting && drained(scnt, ccnt, s.cqMod())) {
                break;
            }
            if (work > 0) {
                lastProgress = now;
            } else if (now - lastProgress > s.timeout().toNanos()) {
                throw stalled(completedTotal, -1);
            }
            spin.idle(work);
        }
        return BwStatistics.duration(size, c1 - c0, t1 - t0, s.unit());
    }

    /** After the last post only signalled batches can still complete; the unsignalled tail is settled with them. */
    private static boolean drained(long[] scnt, long[] ccnt, int cqMod) {
        for (int i = 0; i < scnt.length; i++) {
            long lastSignalled = scnt[i] / cqMod * cqMod;
            if (ccnt[i] < lastSignalled) {
                return false;
            }
        }
        return true;
    }

    private boolean post(QueuePair qp, int index, long through, boolean signaled) {
        long wrId = ((long) index << 48) | through;
        long off = ep.sendOffset(index);
        return switch (s.test().verb()) {
            case WRITE -> qp.postWrite(wrId, ep.mr(), off, size, ep.remoteRecv(index), ep.remoteKey(), signaled);
            case SEND -> qp.postSend(wrId, ep.mr(), off, size, signaled);
        };
    }

    private BenchException stalled(long done, long total) {
        return new BenchException("no completion for " + Rendezvous.seconds(s.timeout()) + " after " + done
                + (total < 0 ? "" : " of " + total) + " messages: the peer or every rail stalled");
    }
}
