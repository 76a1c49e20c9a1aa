package io.xdlink.it;

import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The full-stack part of the conformance suite: verbs over a {@link DevicePair}, every byte checked. */
final class FullStack {
    private FullStack() {
    }

    /** WRITEs of awkward sizes (one byte, a frame's payload and one more, striped ones) to random places. */
    static void writesLandByteForByte(DevicePair p, Random random, String seedNote) {
        int size = 6 << 20;
        MemorySegment src = p.allocate(size);
        MemorySegment dst = p.allocate(size);
        byte[] noise = new byte[size];
        random.nextBytes(noise);
        MemorySegment.copy(MemorySegment.ofArray(noise), 0, src, 0, size);
        MemoryRegion from = p.registerB(src);
        MemoryRegion to = p.registerA(dst);
        long[] lengths = {1, 2, 4044, 4045, 65_536, 65_537, (1 << 20) + 3, 3 << 20};
        long at = 0;
        for (int i = 0; i < lengths.length; i++) {
            long len = lengths[i];
            long srcOff = random.nextLong(size - len);
            long dstOff = at;
            at += len;
            int id = i;
            p.post("write " + i, () -> p.qpB.postWrite(id, from, srcOff, len, to.address() + dstOff, to.rkey()));
            List<Completion> done = p.take(p.cqB, 1, "write of " + len + " bytes");
            assertThat(done.getFirst().status()).as("write %d, %s", i, seedNote).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(dst.asSlice(dstOff, len).mismatch(src.asSlice(srcOff, len)))
                    .as("write of %d bytes landed byte for byte, %s", len, seedNote).isEqualTo(-1);
        }
        assertThat(dst.asSlice(at, 64).mismatch(MemorySegment.ofArray(new byte[64])))
                .as("nothing written past the last write").isEqualTo(-1);
    }

    /** SENDs into posted receives, and a WRITE_WITH_IMM that consumes one and reports its immediate. */
    static void sendsFillReceivesAndWriteWithImmRaisesItsImmediate(DevicePair p, Random random, String seedNote) {
        MemorySegment src = p.allocate(16 * 4096);
        byte[] noise = new byte[16 * 4096];
        random.nextBytes(noise);
        MemorySegment.copy(MemorySegment.ofArray(noise), 0, src, 0, noise.length);
        MemoryRegion from = p.registerB(src);
        MemorySegment dst = p.allocate(4096);
        MemoryRegion to = p.registerA(dst);
        MemorySegment inbox = p.allocate(16 * 4096);
        MemoryRegion recv = p.registerA(inbox);
        for (int i = 0; i < 16; i++) {
            int slot = i;
            p.post("receive " + i, () -> p.qpA.postRecv(100 + slot, recv, slot * 4096L, 4096));
        }
        int[] sendLengths = new int[15];
        for (int i = 0; i < 15; i++) {
            sendLengths[i] = 1 + random.nextInt(4096);
            int n = i;
            p.post("send " + i, () -> p.qpB.postSend(200 + n, from, n * 1000L, sendLengths[n]));
        }
        p.post("write with immediate", () -> p.qpB.postWriteWithImm(300, from, 0, 1000, to.address(), to.rkey(), 0xC0FFEE));
        assertThat(p.take(p.cqB, 16, "sends")).as(seedNote)
                .allSatisfy(c -> assertThat(c.status()).isEqualTo(CompletionStatus.SUCCESS));
        List<Completion> received = p.take(p.cqA, 16, "receives");
        for (int i = 0; i < 15; i++) {
            Completion c = received.get(i);
            assertThat(c.opcode()).isEqualTo(WorkOpcode.RECV);
            assertThat(c.wrId()).isEqualTo(100 + i);
            assertThat(c.byteLen()).isEqualTo(sendLengths[i]);
            assertThat(inbox.asSlice(i * 4096L, sendLengths[i]).mismatch(src.asSlice(i * 1000L, sendLengths[i])))
                    .as("send %d, %s", i, seedNote).isEqualTo(-1);
        }
        Completion imm = received.get(15);
        assertThat(imm.opcode()).isEqualTo(WorkOpcode.RECV_WRITE_WITH_IMM);
        assertThat(imm.hasImm()).isTrue();
        assertThat(imm.imm()).isEqualTo(0xC0FFEE);
        assertThat(imm.byteLen()).isEqualTo(1000);
    }
}
