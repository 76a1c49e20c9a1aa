package io.xdlink.sim.wire;

import io.xdlink.rails.RailTransport;
import io.xdlink.xdomain.VirtualScheduler;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives senders and receivers in virtual time the way a progress engine would: each round every sender offers
 * until refused and every receiver polls; when a round does nothing, time jumps to the next scheduled task.
 */
public final class Pump {
    private final VirtualScheduler scheduler;
    private final List<Sender> senders = new ArrayList<>();
    private final List<Receiver> receivers = new ArrayList<>();

    public Pump(VirtualScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Sends frames of {@code size} bytes, numbered from 0, as fast as {@code t} takes them. */
    public Sender send(RailTransport t, int size) {
        Sender s = new Sender(t, size);
        senders.add(s);
        return s;
    }

    public Receiver receive(RailTransport t) {
        Receiver r = new Receiver(t);
        receivers.add(r);
        return r;
    }

    /** Runs until virtual time reaches {@code deadline} or nothing is left to do. */
    public void runUntil(long deadline) {
        while (scheduler.nanoTime() < deadline) {
            int work = 0;
            for (Sender s : senders) {
                work += s.step();
            }
            for (Receiver r : receivers) {
                work += r.step();
            }
            if (work == 0) {
                long next = scheduler.nextDeadline();
                if (next > deadline) {
                    scheduler.advanceTo(deadline);
                    return;
                }
                scheduler.advanceToNext();
            }
        }
    }

    public static final class Sender {
        final RailTransport transport;
        final MemorySegment frame;
        public long next;
        long refused;
        public long limit = Long.MAX_VALUE;

        Sender(RailTransport transport, int size) {
            this.transport = transport;
            this.frame = Frames.frame(0, size);
        }

        public int step() {
            int n = 0;
            while (next < limit && n < 256) {
                Frames.fill(frame, next);
                if (!transport.offer(frame)) {
                    refused++;
                    break;
                }
                next++;
                n++;
            }
            transport.flush();
            return n;
        }
    }

    public static final class Receiver {
        final RailTransport transport;
        public final List<Long> order = new ArrayList<>();
        public long frames;
        public long bytes;
        public long damaged;
        public boolean paused;

        Receiver(RailTransport transport) {
            this.transport = transport;
        }

        public int step() {
            if (paused) {
                return 0;
            }
            return transport.poll(f -> {
                long seq = Frames.seq(f);
                if (!Frames.intact(f, seq)) {
                    damaged++;
                }
                order.add(seq);
                frames++;
                bytes += f.byteSize();
            }, 256);
        }
    }
}
