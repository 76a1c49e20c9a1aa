package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.ccl.EngineTurn;
import io.xdlink.rails.Agent;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A polling host's large send posted while an earlier one is in flight waits for the comm's next send
 * ({@code ccl_send_hold_us}), so both leave in one socket write: it leaves with that send, or at the end's first call
 * once its wait is over, or at a close, and the bytes arrive as posted. The engines are stepped by the wire, and the
 * turn's clock only moves when a test moves it.
 */
@Timeout(60)
class SendHoldTest extends WiredTurnTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_401DL);
    private static final long HOLD_NANOS = 10_000;
    private static final int TAG = 3;
    private static final long SIZE = SendEndpoint.COPIED_BYTES + 4096;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private RailsWire wire;
    private SendEndpoint send;
    private RecvEndpoint recv;
    private MemoryRegion srcMem;
    private MemoryRegion dstMem;
    private MemorySegment src;
    private MemorySegment dst;

    /** The wire runs the engines; the host calls' cycles run nothing of their own. */
    private static final class IdleAgent implements Agent {
        @Override
        public int doWork() {
            return 0;
        }

        @Override
        public String roleName() {
            return "wired-engine";
        }
    }

    private void connect(boolean hostPolls, long holdNanos) throws Exception {
        EngineTurn turn = new EngineTurn(new IdleAgent(), RailsWire.sleepsUntil(stop), clock::get, hostPolls,
                TimeUnit.SECONDS.toNanos(30), 0, holdNanos);
        open.add(turn);
        // The host is calling, as a proxy thread does all the time.
        turn.poll();
        wire = new RailsWire(SEED);
        open.add(wire);
        send = wire.sendEnd(false, turn);
        recv = wire.recvEnd(false, turn);
        open.add(send::close);
        open.add(recv::close);
        src = RailsWire.filled(arena, 4 * SIZE, SEED);
        dst = arena.allocate(4 * SIZE, 64);
        srcMem = send.register(src);
        dstMem = recv.register(dst);
    }

    private IrecvRequest irecv(int slot) throws CclException {
        IrecvRequest r = recv.irecv(new MemorySegment[] {dst.asSlice(slot * SIZE, SIZE)}, new int[] {TAG},
                new MemoryRegion[] {dstMem});
        assertThat(r).as("receive " + slot + " posted").isNotNull();
        return r;
    }

    /** Sends slot's bytes, stepping the wire until the peer's advertisement for it has arrived. */
    private IsendRequest isend(int slot) throws CclException {
        for (int i = 0; i < 1_000; i++) {
            IsendRequest s = send.isend(src.asSlice(slot * SIZE, SIZE), TAG, srcMem);
            if (s != null) {
                return s;
            }
            wire.step();
        }
        throw new AssertionError("no advertisement for send " + slot);
    }

    /** Tests {@code r} (never again once it said done), stepping the wire between tests; true once done. */
    private boolean completes(EngineRequest r) throws CclException {
        for (int i = 0; i < 50; i++) {
            if (r.test(null)) {
                return true;
            }
            wire.step();
        }
        return false;
    }

    /** Whether the end's attention says it must be driven for its own progress: a host's look then enters Java. */
    private boolean drivenForItsOwnProgress() {
        MemorySegment words = MemorySegment.ofAddress(send.attention().address()).reinterpret(Attention.BYTES);
        return (words.get(ValueLayout.JAVA_LONG, Attention.DRIVE) & Attention.DRIVE_PROGRESS) != 0;
    }

    private void assertArrived(int slot) {
        assertThat(dst.asSlice(slot * SIZE, SIZE).mismatch(src.asSlice(slot * SIZE, SIZE)))
                .as("receive " + slot + " holds send " + slot + "'s bytes").isEqualTo(-1);
    }

    @Test
    void aSendPostedBehindOneInFlightWaitsForTheNextAndBothArrive() throws Exception {
        connect(true, HOLD_NANOS);
        IrecvRequest[] r = {irecv(0), irecv(1), irecv(2)};
        IsendRequest first = isend(0);
        assertThat(drivenForItsOwnProgress()).as("nothing held yet").isFalse();
        IsendRequest second = isend(1);
        assertThat(drivenForItsOwnProgress()).as("a held send makes the host's looks come into Java").isTrue();
        assertThat(completes(r[0])).as("the first send, with nothing before it, left at once").isTrue();
        assertThat(completes(first)).isTrue();
        assertThat(completes(r[1])).as("the second waits for the next send while the clock stands").isFalse();
        assertThat(second.test(null)).isFalse();

        IsendRequest third = isend(2);
        assertThat(completes(r[1])).as("it left with the next send").isTrue();
        assertThat(completes(r[2])).isTrue();
        assertThat(completes(second)).isTrue();
        assertThat(completes(third)).isTrue();
        for (int slot = 0; slot < 3; slot++) {
            assertArrived(slot);
        }
    }

    @Test
    void aHeldSendLeavesAtTheFirstCallAfterItsWait() throws Exception {
        connect(true, HOLD_NANOS);
        IrecvRequest[] r = {irecv(0), irecv(1)};
        isend(0);
        IsendRequest held = isend(1);
        clock.addAndGet(HOLD_NANOS - 1);
        assertThat(held.test(null)).isFalse();
        assertThat(completes(r[1])).as("still within its wait").isFalse();

        clock.addAndGet(1);
        assertThat(held.test(null)).as("this test posts it; its completion comes later").isFalse();
        assertThat(completes(r[1])).as("posted by the test after the wait").isTrue();
        assertThat(completes(held)).as("and it completes like any send").isTrue();
        assertArrived(1);
        assertThat(drivenForItsOwnProgress()).as("nothing held: looks may be answered outside Java again").isFalse();
    }

    @Test
    void aHostThatDoesNotPollNeverHasASendWait() throws Exception {
        connect(false, HOLD_NANOS);
        IrecvRequest[] r = {irecv(0), irecv(1)};
        isend(0);
        isend(1);
        assertThat(completes(r[0])).isTrue();
        assertThat(completes(r[1])).as("such a host may not call again: nothing waits for it").isTrue();
        assertArrived(1);
    }

    @Test
    void aSmallSendNeverWaits() throws Exception {
        connect(true, HOLD_NANOS);
        IrecvRequest[] r = {irecv(0), irecv(1)};
        isend(0);
        IsendRequest small = send.isend(src.asSlice(SIZE, 8), TAG, srcMem);
        assertThat(small).isNotNull();
        assertThat(drivenForItsOwnProgress()).as("nothing held").isFalse();
        assertThat(completes(r[0])).isTrue();
        long[] sizes = new long[1];
        for (int i = 0; i < 50 && !r[1].test(sizes); i++) {
            wire.step();
        }
        assertThat(sizes[0]).as("it left at once").isEqualTo(8);
    }

    @Test
    void closingWithAHeldSendFailsItAndWaitsForNothing() throws Exception {
        connect(true, HOLD_NANOS);
        irecv(0);
        irecv(1);
        isend(0);
        IsendRequest held = isend(1);
        send.close();
        assertThat(held.finished()).as("the close finished it").isTrue();
        assertThat(held.failed()).as("as failed, like every send the close found in flight").isTrue();
        wire.step();
    }
}
