package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;
import io.xdlink.rails.verbs.TwoDevices;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;

/** A WRITE the target does not allow fails at both ends and writes nothing. */
class QpReceiverTest {

    private interface Attack {
        boolean post(QueuePair qp, MemoryRegion src, MemoryRegion target);
    }

    /**
     * A good write striped over both rails, the attack, then a write behind it. The attack is small, so it goes
     * whole to the first rail and reaches the target while the good write's block on the second rail is still on
     * its way: the good write must still complete, the refusal waiting for it as a reliable connection's responder,
     * taking packets in order, would.
     */
    private void refused(Attack attack, Access... targetRights) throws Exception {
        try (TwoDevices t = TwoDevices.simple(2).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(100_000);
            src.fill((byte) 0x5A);
            MemorySegment dst = arena.allocate(100_000);
            dst.fill((byte) 0x11);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, targetRights);
            t.qpA().postRecv(3, null, 0, 0);
            t.qpA().postRecv(4, null, 0, 0);
            assertThat(t.qpB().postWrite(1, s, 0, 100_000, d.address(), d.rkey())).isTrue(); // a good one first
            assertThat(attack.post(t.qpB(), s, d)).isTrue();
            assertThat(t.qpB().postWrite(7, s, 0, 10, d.address(), d.rkey())).isTrue(); // flushed behind it
            Completion first = t.next(t.cqB);
            Completion bad = t.next(t.cqB);
            Completion after = t.next(t.cqB);
            boolean goodAllowed = d.allows(Access.REMOTE_WRITE);
            if (goodAllowed) {
                assertThat(first.status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(bad.wrId()).isEqualTo(2);
                assertThat(bad.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            } else {
                assertThat(first.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
                assertThat(bad.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            }
            assertThat(after.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            Completion target = t.next(t.cqA);
            assertThat(target.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(target.wrId()).isEqualTo(3);
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            assertThat(t.qpA().state()).isEqualTo(QpState.ERROR);
            assertThat(t.qpB().state()).isEqualTo(QpState.ERROR);
            MemorySegment expected = arena.allocate(100_000);
            expected.fill(goodAllowed ? (byte) 0x5A : (byte) 0x11);
            assertThat(dst.mismatch(expected)).as("target memory").isEqualTo(-1);
        }
    }

    @Test
    void aWrongKeyIsRefused() throws Exception {
        refused((qp, s, d) -> qp.postWrite(2, s, 0, 8192, d.address(), d.rkey() ^ 0x40), Access.REMOTE_WRITE);
    }

    @Test
    void aRangeOutsideTheRegionIsRefusedBeforeAnyByteIsWritten() throws Exception {
        // Most of the message fits; its last frame would not. Nothing of it may land.
        refused((qp, s, d) -> qp.postWrite(2, s, 0, 50_000, d.address() + 60_000, d.rkey()), Access.REMOTE_WRITE);
    }

    @Test
    void aRegionWithoutRemoteWriteIsRefused() throws Exception {
        refused((qp, s, d) -> qp.postWrite(2, s, 0, 10, d.address(), d.rkey()), Access.LOCAL_WRITE);
    }

    @Test
    void aDeregisteredKeyIsRefused() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(64);
            src.fill((byte) 1);
            MemorySegment dst = arena.allocate(64);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            d.deregister();
            assertThat(d.isValid()).isFalse();
            t.qpB().postWrite(1, s, 0, 64, d.address(), d.rkey());
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            Completion target = t.next(t.cqA);
            assertThat(target.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(target.wrId()).isEqualTo(Completion.NO_WR_ID);
            assertThat(target.opcode()).isEqualTo(WorkOpcode.RECV_WRITE);
            assertThat(dst.mismatch(arena.allocate(64))).isEqualTo(-1);
        }
    }

    @Test
    void aRegionDeregisteredWhileItsWriteArrivesTakesNoMoreOfIt() throws Exception {
        // Frames after the first of a message reuse the target its first frame found; they must still see the
        // region go.
        int size = 4 << 20;
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(size);
            src.fill((byte) 0x5A);
            MemorySegment dst = arena.allocate(size);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.REMOTE_WRITE);
            t.qpB().postWrite(1, s, 0, size, d.address(), d.rkey());
            // One duty cycle at a time, so the region goes while the message is still arriving.
            for (int i = 0; i < 1000 && dst.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0) == 0; i++) {
                t.b.agent().doWork();
                t.a.agent().doWork();
            }
            assertThat(dst.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).as("first frame placed").isEqualTo((byte) 0x5A);
            d.deregister();
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            long landed = 0;
            while (landed < size && dst.get(java.lang.foreign.ValueLayout.JAVA_BYTE, landed) != 0) {
                landed++;
            }
            assertThat(landed).as("bytes placed before the region went").isPositive().isLessThan(size);
            assertThat(dst.asSlice(landed).mismatch(arena.allocate(size - landed))).isEqualTo(-1);
        }
    }

    @Test
    void keysAreRandomNotSequential() {
        try (TwoDevices t = TwoDevices.simple(1)) {
            int previous = 0;
            int sequential = 0;
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int i = 0; i < 1000; i++) {
                MemoryRegion mr = t.pdA.register(MemorySegment.ofArray(new byte[16]), Access.REMOTE_WRITE);
                assertThat(mr.rkey()).isNotZero();
                assertThat(seen.add(mr.rkey())).isTrue();
                if (Math.abs((long) mr.rkey() - previous) < 1000) {
                    sequential++;
                }
                previous = mr.rkey();
            }
            assertThat(sequential).isLessThan(5);
        }
    }
}
