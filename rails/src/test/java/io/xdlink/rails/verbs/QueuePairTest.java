package io.xdlink.rails.verbs;

import io.xdlink.rails.RailsSettings;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static io.xdlink.rails.RailTransport.MAX_FRAME_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueuePairTest {

    @Test
    void aSendBeforeAnyReceiveIsRetriedUntilOneIsPosted() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(20_000);
            src.fill((byte) 9);
            MemorySegment dst = arena.allocate(20_000);
            MemoryRegion s = t.pdB.register(src);
            MemoryRegion d = t.pdA.register(dst, Access.LOCAL_WRITE);
            t.qpB().postSend(1, s, 0, 20_000);
            t.settle(5_000_000); // 5 ms: the receiver is not ready, the sender keeps retrying
            assertThat(t.cqB.poll()).isNull();
            assertThat(t.a.stats().nakFramesSent()).isPositive();
            t.qpA().postRecv(2, d, 0, 20_000);
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
            Completion r = t.next(t.cqA);
            assertThat(r.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(r.byteLen()).isEqualTo(20_000);
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    @Test
    void aReceiverThatNeverGetsReadyExhaustsTheRetries() throws Exception {
        try (TwoDevices t = new TwoDevices(List.of("c"), LinkState.of(Generation.GEN3, 1), false,
                RailsSettings.of("rnr_retry", "2"), 1024, 5).connect()) {
            t.qpB().postSend(1, null, 0, 0);
            t.qpB().postSend(2, null, 0, 0);
            Completion c = t.next(t.cqB);
            assertThat(c.wrId()).isEqualTo(1);
            assertThat(c.status()).isEqualTo(CompletionStatus.RNR_RETRY_EXCEEDED_ERROR);
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            assertThat(t.qpB().state()).isEqualTo(QpState.ERROR);
        }
    }

    @Test
    void aSendLongerThanTheReceiveFailsBothEnds() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion s = t.pdB.register(arena.allocate(100));
            MemoryRegion d = t.pdA.register(arena.allocate(50), Access.LOCAL_WRITE);
            t.qpA().postRecv(1, d, 0, 50);
            t.qpB().postSend(2, s, 0, 100);
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.REMOTE_INVALID_REQUEST_ERROR);
            Completion r = t.next(t.cqA);
            assertThat(r.wrId()).isEqualTo(1);
            assertThat(r.status()).isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
        }
    }

    @Test
    void theSendQueueLimitRefusesPostsBeyondIt() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect()) {
            int accepted = 0;
            while (t.qpB().postWrite(accepted, null, 0, 0, 0, 0, false)) {
                accepted++;
            }
            assertThat(accepted).isEqualTo(t.b.settings().qpMaxSendWr());
            assertThat(t.qpB().sendOutstanding()).isEqualTo(accepted);
        }
    }

    @Test
    void zeroLengthMessagesCompleteInOrder() throws Exception {
        try (TwoDevices t = TwoDevices.simple(2).connect()) {
            for (int i = 0; i < 50; i++) {
                t.qpA().postRecv(100 + i, null, 0, 0);
            }
            for (int i = 0; i < 50; i++) {
                if (i % 2 == 0) {
                    t.qpB().postSendWithImm(i, null, 0, 0, i);
                } else {
                    t.qpB().postWriteWithImm(i, null, 0, 0, 0, 0, i);
                }
            }
            for (int i = 0; i < 50; i++) {
                Completion c = t.next(t.cqA);
                assertThat(c.status()).isEqualTo(CompletionStatus.SUCCESS);
                assertThat(c.imm()).isEqualTo(i);
                assertThat(c.wrId()).isEqualTo(100 + i);
            }
            for (int i = 0; i < 50; i++) {
                assertThat(t.next(t.cqB).wrId()).isEqualTo(i);
            }
        }
    }

    @Test
    void badArgumentsAreRefusedByName() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect()) {
            MemoryRegion mr = t.pdB.register(MemorySegment.ofArray(new byte[10]));
            assertThatThrownBy(() -> t.qpB().postWrite(1, mr, 5, 10, 0, 0)).hasMessageContaining("offset 5");
            assertThatThrownBy(() -> t.qpB().postWrite(1, mr, 0, -1, 0, 0)).hasMessageContaining("length -1");
            assertThatThrownBy(() -> t.qpB().postRecv(1, mr, 0, 10)).hasMessageContaining("LOCAL_WRITE");
            MemoryRegion other = t.pdA.register(MemorySegment.ofArray(new byte[10]));
            assertThatThrownBy(() -> t.qpB().postSend(1, other, 0, 1)).hasMessageContaining("another device");
        }
    }

    @Test
    void closingAQueuePairFlushesItAndFailsItsPeer() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1).connect(); Arena arena = Arena.ofShared()) {
            MemoryRegion d = t.pdA.register(arena.allocate(64), Access.LOCAL_WRITE);
            t.qpA().postRecv(1, d, 0, 64);
            t.qpB().postRecv(2, null, 0, 0);
            t.qpA().close();
            assertThat(t.next(t.cqA)).isEqualTo(new Completion(1, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR,
                    0, 0, false, t.qpA().qpn()));
            assertThat(t.qpA().state()).isEqualTo(QpState.CLOSED);
            assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
            assertThat(t.qpB().state()).isEqualTo(QpState.ERROR);
            assertThat(t.qpA().postRecv(3, d, 0, 64)).isTrue();
            assertThat(t.next(t.cqA).status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
        }
    }

    @Test
    void aQueuePairClosedRightAfterItsReceiveCompletedLetsThePeerCompleteTheSend() throws Exception {
        // Acknowledgements are coalesced (one per 32 frames or 100 ms) and B may have only 64 KiB in flight, so what
        // B sends now never earns an ACK by itself: only one sent because of the close, ahead of the DISCONNECT,
        // can tell B that its SEND arrived.
        RailsSettings lazyAcks = RailsSettings.of("ack_every_frames", "32", "ack_delay_us", "100000",
                "inflight_bytes", "65536");
        try (TwoDevices t = new TwoDevices(List.of("c"), LinkState.of(Generation.GEN3, 2), false, lazyAcks, 1024, 9)
                .connect(); Arena arena = Arena.ofShared()) {
            int frame = t.b.settings().frameBytes();
            MemorySegment msg = arena.allocate(100);
            msg.fill((byte) 5);
            MemorySegment bulk = arena.allocate(200L * frame);
            MemoryRegion s = t.pdB.register(msg);
            MemoryRegion w = t.pdB.register(bulk);
            MemoryRegion d = t.pdA.register(arena.allocate(100), Access.LOCAL_WRITE);
            MemoryRegion target = t.pdA.register(arena.allocate(bulk.byteSize()), Access.LOCAL_WRITE,
                    Access.REMOTE_WRITE);
            t.qpA().postRecv(1, d, 0, 100);
            t.a.agent().doWork();
            // The SEND, then a WRITE longer than the budget lets out: no frame B sends now asks for an ACK.
            long acksBefore = t.a.stats().ackFramesSent();
            t.qpB().postSend(2, s, 0, 100);
            t.qpB().postWrite(3, w, 0, bulk.byteSize(), target.address(), target.rkey());
            t.b.agent().doWork();
            t.a.agent().doWork();
            Completion recv = t.cqA.poll();
            assertThat(recv).isNotNull();
            assertThat(recv.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(t.a.stats().ackFramesSent()).as("no ACK before the close").isEqualTo(acksBefore);
            t.qpA().close();
            t.a.agent().doWork();
            assertThat(t.a.stats().ackFramesSent()).isEqualTo(acksBefore + 1);
            Completion send = t.next(t.cqB);
            assertThat(send.wrId()).isEqualTo(2);
            assertThat(send.status()).as("the SEND whose bytes arrived").isEqualTo(CompletionStatus.SUCCESS);
            Completion write = t.next(t.cqB);
            assertThat(write.wrId()).isEqualTo(3);
            assertThat(write.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERROR);
        }
    }

    /** One end of a rail that loses the first {@code count} NAK frames offered to it, and nothing else. */
    private static final class NakLosingRail extends io.xdlink.rails.ForwardingRailTransport {
        private final MemorySegment scratch = Arena.ofAuto().allocate(MAX_FRAME_BYTES);
        private int toLose;
        int lost;

        NakLosingRail(io.xdlink.rails.RailTransport inner, int count) {
            super(inner);
            this.toLose = count;
        }

        @Override
        public boolean offer(int length, FrameWriter writer) {
            writer.write(scratch, 0);
            int op = Byte.toUnsignedInt(scratch.get(java.lang.foreign.ValueLayout.JAVA_BYTE,
                    io.xdlink.rails.frame.FrameLayout.OFF_OPCODE));
            if (op == io.xdlink.rails.frame.Opcode.NAK.code() && toLose > 0) {
                toLose--;
                lost++;
                return true;
            }
            return super.offer(length, writer);
        }
    }

    @Test
    void aLostRefusalIsSentAgainWhenThePeerResendsAndTheWriteFailsWithTheRealReason() throws Exception {
        io.xdlink.rails.inmemory.InMemoryRailPair pair = io.xdlink.rails.inmemory.InMemoryRailPair.create(
                new io.xdlink.rails.RailInfo("lossy0", "c", LinkState.of(Generation.GEN3, 2), true), 1024);
        NakLosingRail aEnd = new NakLosingRail(pair.a(), 2);
        RailsSettings settings = RailsSettings.defaults();
        try (TwoDevices t = new TwoDevices(List.of(aEnd), List.of(pair.b()), settings, 21).connect();
             Arena arena = Arena.ofShared()) {
            MemoryRegion from = t.pdB.register(arena.allocate(8192));
            MemorySegment dst = arena.allocate(8192);
            MemoryRegion to = t.pdA.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            long start = t.clock.nanoTime();
            t.qpB().postWrite(1, from, 0, 8192, to.address(), to.rkey() ^ 0x5A5A);
            Completion c = t.next(t.cqB);
            assertThat(c.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            assertThat(aEnd.lost).isEqualTo(2);
            assertThat(t.a.stats().nakFramesSent()).as("the NAK, lost twice, then delivered").isEqualTo(3);
            assertThat(t.clock.nanoTime() - start).isLessThan(settings.peerTimeoutNanos());
            assertThat(dst.mismatch(MemorySegment.ofArray(new byte[8192]))).as("target untouched").isEqualTo(-1);
        }
    }
}
