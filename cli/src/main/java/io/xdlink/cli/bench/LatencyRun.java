package io.xdlink.cli.bench;

import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * write_lat and send_lat as perftest runs them: a ping-pong on one queue pair. For WRITE each side writes the
 * message into the other's receive area and spins on the last byte of its own until the peer's write lands (the
 * byte carries the iteration's marker); for SEND each side waits for a receive completion. The client stamps each
 * ping; consecutive stamps are round trips.
 */
final class LatencyRun {
    private LatencyRun() {
    }

    /** Round trips in a warm-up's first round. */
    static final long WARM_UP_FIRST_ROUNDS = 1000;

    /**
     * The client's warm-up before a size's measured round trips ({@code --perform_warm_up}): rounds of round trips at
     * {@code pace} until their rate is level and this process's compilers are quiet ({@link WarmUpPlateau}). In the
     * two-host lab a 2-byte ping-pong after a fixed 20000 warm-up round trips took 15.8 us typical, against 9.1 us
     * 600000 round trips in. Returns the round trips it made: the measured ones continue the count, as the server
     * answers every ping until the client's result stops it.
     */
    private static long warmUp(Pinger p, long size, WarmUpPlateau.Pace pace, LongSupplier peerCompilerMillis) {
        long[] made = {0};
        WarmUpPlateau.run(pace, WarmUpPlateau.firstRound(WARM_UP_FIRST_ROUNDS, size), 1, peerCompilerMillis, n -> {
            for (long k = 0; k < n; k++) {
                p.roundTrip(made[0]++);
            }
        });
        return made[0];
    }

    /**
     * The client's half: a warm-up at {@code warmUp}'s pace unless it is null (none in duration mode, whose own
     * margins leave the start out), then {@code n} pings, or pings for the duration; returns the row.
     */
    static BenchResult ping(BenchEndpoint ep, BenchSettings s, long size, WarmUpPlateau.Pace warmUp,
                            LongSupplier peerCompilerMillis) {
        Pinger p = new Pinger(ep, s, size);
        long warmed = warmUp != null && !s.durationMode() ? warmUp(p, size, warmUp, peerCompilerMillis) : 0;
        if (!s.durationMode()) {
            int n = Math.toIntExact(s.iterations());
            long[] stamps = new long[n];
            for (int i = 0; i < n; i++) {
                stamps[i] = System.nanoTime();
                p.roundTrip(warmed + i);
            }
            return new BenchResult.Lat(LatencyStatistics.compute(size, stamps, n, 2));
        }
        Duration d = s.duration();
        long start = System.nanoTime();
        long margin = Math.min(Duration.ofSeconds(2).toNanos(), d.toNanos() / 4);
        long from = start + margin;
        long to = start + d.toNanos() - margin;
        long count = 0;
        long t0 = -1;
        long i = warmed;
        long now;
        while ((now = System.nanoTime()) < to) {
            if (t0 < 0 && now >= from) {
                t0 = now;
                count = 0;
            }
            p.roundTrip(i++);
            count++;
        }
        if (t0 < 0 || count == 0) {
            throw new BenchException("no round trip completed inside the sampling window; use a longer -D");
        }
        double[] avgTps = LatencyStatistics.duration(System.nanoTime() - t0, count, 2);
        return new BenchResult.LatDuration(new LatencyDurationResult(size, count, avgTps[0], avgTps[1]));
    }

    /**
     * The client's half in turns ({@code --turns}): the warm-up first at {@code warmUp}'s pace unless it is null,
     * then each {@link #turn}'s
     * round trips, numbered on from the last turn's as the server's one responder for the size counts them.
     */
    static final class InTurns {
        private final Pinger p;
        private long next;

        InTurns(BenchEndpoint ep, BenchSettings s, long size, WarmUpPlateau.Pace warmUp,
                LongSupplier peerCompilerMillis) {
            p = new Pinger(ep, s, size);
            next = warmUp != null ? warmUp(p, size, warmUp, peerCompilerMillis) : 0;
        }

        /** {@link Turns#LEAD_IN} unmeasured round trips, then {@code n}; returns each measured one's time in ns. */
        long[] turn(int n) {
            for (int i = 0; i < Turns.LEAD_IN; i++) {
                p.roundTrip(next++);
            }
            long[] stamps = new long[n + 1];
            for (int i = 0; i < n; i++) {
                stamps[i] = System.nanoTime();
                p.roundTrip(next++);
            }
            stamps[n] = System.nanoTime();
            return Turns.roundTrips(stamps);
        }
    }

    /**
     * The server's half: answers pings, the client's warm-up and measured ones alike, until {@code stop} says so (the
     * client's result has come, so every ping it made has been answered).
     */
    static void respond(BenchEndpoint ep, BenchSettings s, long size, BooleanSupplier stop) {
        Pinger p = new Pinger(ep, s, size);
        for (long i = 0; !stop.getAsBoolean(); i++) {
            if (!p.await(i, stop)) {
                return;
            }
            p.send(i);
        }
    }

    /** One side of the ping-pong on queue pair 0. */
    private static final class Pinger {
        /** The client's stop: it is never stopped while it waits; a silent peer ends it by the timeout. */
        private static final BooleanSupplier NEVER = () -> false;

        private final BenchEndpoint ep;
        private final BenchSettings s;
        private final long size;
        private final QueuePair qp;
        private final long last;
        private final BenchDevice.Pacer spin;

        Pinger(BenchEndpoint ep, BenchSettings s, long size) {
            this.ep = ep;
            this.s = s;
            this.size = size;
            this.qp = ep.qps().getFirst();
            this.last = size - 1;
            this.spin = ep.answerPacer();
            if (s.test().verb() == BenchTest.Verb.SEND) {
                // Two receives: the next ping can arrive while the last one's completion is still being polled.
                // Receives an earlier size left posted count.
                while (qp.recvOutstanding() < 2) {
                    postRecv();
                }
            }
        }

        /**
         * Client: ping and wait for the pong. The warm-up's round trips and the measured ones wait with the one
         * {@link #NEVER}: {@link #await} is compiled during the warm-up for the suppliers it met there (in one
         * process, the server's too), and a new one at the first measured round trip threw that code away, so the
         * first measured thousand ran while it was compiled again: 6.5-9.9 us typical over the simulator in six runs
         * of seven (3.2 in the seventh) against 2.2-3.7 a few thousand round trips on.
         */
        void roundTrip(long i) {
            send(i);
            if (!await(i, NEVER)) {
                throw new BenchException("stopped while waiting for the peer");
            }
        }

        void send(long i) {
            byte marker = marker(i);
            ep.write(ep.sendOffset(0) + last, marker);
            boolean ok = switch (s.test().verb()) {
                case WRITE -> qp.postWrite(i, ep.mr(), ep.sendOffset(0), size, ep.remoteRecv(0), ep.remoteKey(),
                        true);
                case SEND -> qp.postSend(i, ep.mr(), ep.sendOffset(0), size, true);
            };
            if (!ok) {
                throw new BenchException("the send queue is full during a ping-pong; the peer stopped answering");
            }
        }

        /** Waits for the peer's message {@code i}; false when stopped first. */
        boolean await(long i, BooleanSupplier stop) {
            byte marker = marker(i);
            long deadline = System.nanoTime() + s.timeout().toNanos();
            while (true) {
                boolean arrived = false;
                Completion c;
                while ((c = ep.poll()) != null) {
                    if (c.opcode() == WorkOpcode.RECV) {
                        postRecv();
                        arrived = true;
                    }
                }
                if (s.test().verb() == BenchTest.Verb.WRITE) {
                    arrived = ep.readVolatile(ep.recvOffset(0) + last) == marker;
                }
                if (arrived) {
                    // No duty cycle here: the acknowledgement this message asked for then leaves with the answer
                    // posted next, in one write, instead of in a write of its own just before it.
                    return true;
                }
                if (stop.getAsBoolean()) {
                    return false;
                }
                if (System.nanoTime() > deadline) {
                    throw new BenchException("no answer from the peer for " + Rendezvous.seconds(s.timeout())
                            + " in a ping-pong (iteration " + i + ")");
                }
                spin.idle(0);
            }
        }

        private void postRecv() {
            if (!qp.postRecv(0, ep.mr(), ep.recvOffset(0), ep.recvCapacity())) {
                throw new BenchException("could not post a receive for the ping-pong");
            }
        }

        /** 1..255, changing every iteration, never the buffer's initial 0. */
        private static byte marker(long i) {
            return (byte) (i % 255 + 1);
        }
    }
}
