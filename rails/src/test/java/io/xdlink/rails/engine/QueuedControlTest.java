package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameException;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each kind of queued control frame lays its named fields into the frame's bytes where the peer reads them. */
class QueuedControlTest {

    /** Writes {@code c} as a frame and reads it back the way a receiving engine does. */
    private static FrameView sent(QueuedControl c) throws FrameException {
        FrameOut out = new FrameOut();
        c.writeTo(out);
        out.epoch = 7;
        out.seq = 1234;
        out.credit = 99;
        MemorySegment frame = Arena.ofAuto().allocate(out.length());
        out.write(frame, 0);
        return new FrameView().wrap(frame);
    }

    @Test
    void aNakNamesTheQueuePairTheMessageAndTheReason() throws FrameException {
        FrameView v = sent(new QueuedControl.Nak(0x1_0005, 0x7FFF_FFF0, NakReason.RECEIVER_NOT_READY));
        assertThat(List.of(v.opcode(), v.nakQpn(), v.nakMsn(), v.nakReason(), v.epoch(), v.seq()))
                .containsExactly(Opcode.NAK, 0x1_0005, 0x7FFF_FFF0, NakReason.RECEIVER_NOT_READY, 7, 1234);
    }

    @Test
    void aConnectRequestNamesTheListenerAndTheRequestersLimits() throws FrameException {
        FrameView v = sent(new QueuedControl.ConnectRequest(0xDEAD_BEEF_0000_0001L, 42, 0x303, 64, 1024));
        assertThat(List.of(v.opcode(), v.connId(), v.connListener(), v.connSrcQpn(), v.connMaxMessages(),
                v.connPsnWindow())).containsExactly(Opcode.CONNECT_REQUEST, 0xDEAD_BEEF_0000_0001L, 42, 0x303, 64,
                1024);
    }

    @Test
    void aConnectReplyNamesTheRequesterAndTheAcceptor() throws FrameException {
        FrameView v = sent(new QueuedControl.ConnectReply(-5L, 0x404, 0x505, 128, 2048));
        assertThat(List.of(v.opcode(), v.connId(), v.connDstQpn(), v.connSrcQpn(), v.connMaxMessages(),
                v.connPsnWindow())).containsExactly(Opcode.CONNECT_REPLY, -5L, 0x404, 0x505, 128, 2048);
    }

    @Test
    void aConnectRejectCarriesTheRequestAndTheReason() throws FrameException {
        FrameView v = sent(new QueuedControl.ConnectReject(77L, RejectReason.BACKLOG_FULL));
        assertThat(List.of(v.opcode(), v.connId(), v.rejectReason()))
                .containsExactly(Opcode.CONNECT_REJECT, 77L, RejectReason.BACKLOG_FULL);
    }

    @Test
    void aDisconnectNamesBothQueuePairs() throws FrameException {
        FrameView v = sent(new QueuedControl.Disconnect(0x606, 0x707));
        assertThat(List.of(v.opcode(), v.disconnectDstQpn(), v.disconnectSrcQpn()))
                .containsExactly(Opcode.DISCONNECT, 0x606, 0x707);
    }

    @Test
    void onlyANakAndADisconnectWaitBehindAnOwedAck() {
        assertThat(new QueuedControl.Nak(1, 1, NakReason.REMOTE_ACCESS).waitsForAck()).isTrue();
        assertThat(new QueuedControl.Disconnect(1, 2).waitsForAck()).isTrue();
        assertThat(new QueuedControl.ConnectRequest(1, 1, 1, 1, 16).waitsForAck()).isFalse();
        assertThat(new QueuedControl.ConnectReply(1, 1, 1, 1, 16).waitsForAck()).isFalse();
        assertThat(new QueuedControl.ConnectReject(1, RejectReason.NO_LISTENER).waitsForAck()).isFalse();
    }

    @Test
    void theOutboxCountsNaksAsTheyAreQueued() {
        EngineCounters counters = new EngineCounters();
        ControlOutbox box = new ControlOutbox(counters);
        box.add(new QueuedControl.Nak(3, 9, NakReason.INVALID_REQUEST));
        box.add(new QueuedControl.Disconnect(3, 4));
        box.add(new QueuedControl.Nak(3, 10, NakReason.INVALID_REQUEST));
        assertThat(box.size()).isEqualTo(3);
        assertThat(counters.nakFramesQueued).isEqualTo(2);
        // No rail is up: nothing goes, nothing is lost, and no NAK counts as sent.
        assertThat(box.send(new FrameOut(), 0, false, null, null, List.of())).isZero();
        assertThat(box.size()).isEqualTo(3);
        assertThat(counters.nakFramesSent).isZero();
    }
}
