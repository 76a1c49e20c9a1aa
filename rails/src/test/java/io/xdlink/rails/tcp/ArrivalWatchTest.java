package io.xdlink.rails.tcp;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress engines over a TCP rail that, once idle, park with no time limit: the only thing that can resume one is
 * a signal, which the test gives for its own posts and the rail gives for arriving frames. Every message therefore
 * proves that the rail woke a parked engine; without {@link ArrivalWatch} the first message would never arrive.
 */
class ArrivalWatchTest {
    private static final int ROUND_TRIPS = 20;
    private static final int MESSAGE = 16;

    /**
     * Parks until signalled once switched to {@link #untilSignalled}; parks briefly before (setting up a connection
     * runs timers). Signals are counted rather than flagged, so one given while the engine works is not lost: the
     * engine takes another duty cycle instead of parking.
     */
    static final class SignalledIdle implements IdleStrategy {
        private final AtomicLong signals = new AtomicLong();
        private final AtomicLong parks = new AtomicLong();
        private volatile boolean untilSignalled;
        private volatile Thread thread;
        private volatile long parkedAt = -1;
        private long seen;

        @Override
        public void idle(int workCount) {
            thread = Thread.currentThread();
            if (workCount > 0) {
                return;
            }
            if (!untilSignalled) {
                LockSupport.parkNanos(50_000);
                return;
            }
            long s = signals.get();
            if (s != seen) {
                seen = s;
                return; // a signal since the last duty cycle began: look again before parking
            }
            parks.incrementAndGet();
            parkedAt = s;
            while (signals.get() == s && untilSignalled) {
                LockSupport.park(this);
            }
            parkedAt = -1;
            seen = signals.get();
        }

        /** Counts a signal and unparks the engine; any thread. Returns the new count. */
        long signal() {
            long s = signals.incrementAndGet();
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
            return s;
        }

        /** Signals, and waits until the engine has run since and parked again: what was posted before is done. */
        void signalAndAwaitParked(String who) {
            long s = signal();
            Await.until(who + " parked after signal " + s, () -> parkedSince(s));
        }

        /** True while the engine is parked, having seen signal {@code s}. */
        boolean parkedSince(long s) {
            return parkedAt >= s;
        }

        void untilSignalled(boolean on) {
            untilSignalled = on;
            signal();
        }

        long parks() {
            return parks.get();
        }
    }

    /** The rail under test, counting the wakes it gives and turning each into a signal to its engine's idling. */
    static final class CountingRail extends ForwardingRailTransport {
        final SignalledIdle idle;
        final AtomicLong wakes = new AtomicLong();

        CountingRail(TcpRailTransport rail, SignalledIdle idle) {
            super(rail);
            this.idle = idle;
        }

        @Override
        public void onArrival(Runnable wake) {
            super.onArrival(() -> {
                wakes.incrementAndGet();
                idle.signal();
                wake.run();
            });
        }
    }

    private record Side(Device device, SignalledIdle idle, CountingRail rail, CompletionQueue cq, MemorySegment memory,
                        MemoryRegion mr) {
    }

    private static Side side(Arena arena, TcpRailTransport transport, long n) {
        SignalledIdle idle = new SignalledIdle();
        CountingRail rail = new CountingRail(transport, idle);
        Device d = Device.open(DeviceConfig.builder().id(new UUID(0xA77, n)).settings(RailsSettings.defaults())
                .thread(idle).seed(n).build(), List.of(rail));
        MemorySegment memory = arena.allocate(2 * MESSAGE);
        return new Side(d, idle, rail, d.createCq(64), memory,
                d.allocPd().register(memory, Access.LOCAL_WRITE));
    }

    private static Completion next(Side s, WorkOpcode opcode, long wrId) {
        Completion[] got = new Completion[1];
        Await.until(opcode + " " + wrId + " on " + s.device(), () -> (got[0] = s.cq().poll()) != null);
        assertThat(got[0].isSuccess()).as("%s", got[0]).isTrue();
        assertThat(got[0].opcode()).isEqualTo(opcode);
        assertThat(got[0].wrId()).isEqualTo(wrId);
        return got[0];
    }

    /** One SEND from {@code from} to {@code to}, both parked before it: bytes and completions on both sides. */
    private static void send(Side from, QueuePair fromQp, Side to, QueuePair toQp, int i) {
        to.memory().asSlice(MESSAGE, MESSAGE).fill((byte) 0);
        assertThat(toQp.postRecv(i, to.mr(), MESSAGE, MESSAGE)).isTrue();
        long posted = to.idle().signal();
        // Wakes read before the engine is seen parked: the duty cycle that takes the message must follow a signal
        // after that, and only the rail gives the receiver signals from here on, counting each.
        long[] wakesBefore = new long[1];
        Await.until("the receiver parked", () -> {
            wakesBefore[0] = to.rail().wakes.get();
            return to.idle().parkedSince(posted);
        });
        for (int k = 0; k < MESSAGE; k++) {
            from.memory().set(ValueLayout.JAVA_BYTE, k, (byte) (i * 31 + k));
        }
        from.idle().signalAndAwaitParked("sender");
        assertThat(fromQp.postSend(i, from.mr(), 0, MESSAGE)).isTrue();
        from.idle().signal(); // the post; the receiver hears of it only from its rail
        assertThat(next(to, WorkOpcode.RECV, i).byteLen()).isEqualTo(MESSAGE);
        assertThat(to.memory().asSlice(MESSAGE, MESSAGE).toArray(ValueLayout.JAVA_BYTE))
                .isEqualTo(from.memory().asSlice(0, MESSAGE).toArray(ValueLayout.JAVA_BYTE));
        assertThat(to.rail().wakes.get()).as("the receiver's rail woke it").isGreaterThan(wakesBefore[0]);
        next(from, WorkOpcode.SEND, i); // the ACK, too, reached a sender that may have parked meanwhile
    }

    @Test
    void parkedEnginesOverATcpRailAreWokenByArrivingFrames() throws Exception {
        try (Arena arena = Arena.ofShared();
             TcpLoopbackPair pair = TcpLoopbackPair.open(TcpSettings.defaults(), TcpRailTransportTest.LINK)) {
            Side a = side(arena, pair.a(), 1);
            Side b = side(arena, pair.b(), 2);
            try {
                QpPairs.Pair qp = QpPairs.connect(a.device(), QpAttributes.of(a.mr().pd(), a.cq()), b.device(),
                        QpAttributes.of(b.mr().pd(), b.cq()));
                QueuePair qa = qp.listening();
                QueuePair qb = qp.connecting();
                a.idle().untilSignalled(true);
                b.idle().untilSignalled(true);
                long parksA = a.idle().parks();
                long parksB = b.idle().parks();
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    send(a, qa, b, qb, 2 * i);
                    send(b, qb, a, qa, 2 * i + 1);
                }
                // Each message found both engines parked, so each side parked at least once per message.
                assertThat(a.idle().parks() - parksA).isGreaterThanOrEqualTo(2 * ROUND_TRIPS);
                assertThat(b.idle().parks() - parksB).isGreaterThanOrEqualTo(2 * ROUND_TRIPS);
                assertThat(a.device().lastError()).isNull();
                assertThat(b.device().lastError()).isNull();
            } finally {
                a.idle().untilSignalled(false); // a runner that never wakes could not be closed
                b.idle().untilSignalled(false);
                a.device().close();
                b.device().close();
            }
        }
    }
}
