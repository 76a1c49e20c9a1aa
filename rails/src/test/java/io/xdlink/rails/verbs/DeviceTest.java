package io.xdlink.rails.verbs;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceTest {

    @Test
    void aWriteWithImmediateArrivesAndCompletesOnBothSides() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(10_000);
            for (int i = 0; i < 10_000; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            }
            MemorySegment dst = arena.allocate(10_000);
            MemoryRegion mrB = t.pdB.register(src);
            MemoryRegion mrA = t.pdA.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            assertThat(t.qpA.postRecv(5, null, 0, 0)).isTrue();
            assertThat(t.qpB.postWriteWithImm(9, mrB, 0, 10_000, mrA.address(), mrA.rkey(), 1234)).isTrue();
            Completion sent = t.next(t.cqB);
            assertThat(sent).isEqualTo(new Completion(9, WorkOpcode.WRITE_WITH_IMM, CompletionStatus.SUCCESS, 10_000,
                    0, false, t.qpB.qpn()));
            Completion recv = t.next(t.cqA);
            assertThat(recv).isEqualTo(new Completion(5, WorkOpcode.RECV_WRITE_WITH_IMM, CompletionStatus.SUCCESS,
                    10_000, 1234, true, t.qpA.qpn()));
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    @Test
    void sendLandsInThePostedReceive() throws Exception {
        try (TwoDevices t = TwoDevices.simple(2).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(100);
            src.fill((byte) 3);
            MemorySegment dst = arena.allocate(200);
            MemoryRegion mrA = t.pdA.register(src);
            MemoryRegion mrB = t.pdB.register(dst, Access.LOCAL_WRITE);
            t.qpB.postRecv(77, mrB, 50, 150);
            t.qpA.postSendWithImm(8, mrA, 0, 100, 99);
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(t.next(t.cqB)).isEqualTo(new Completion(77, WorkOpcode.RECV, CompletionStatus.SUCCESS, 100, 99,
                    true, t.qpB.qpn()));
            assertThat(dst.asSlice(50, 100).mismatch(src)).isEqualTo(-1);
            assertThat(dst.get(ValueLayout.JAVA_BYTE, 49)).isZero();
        }
    }
}
