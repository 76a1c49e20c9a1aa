package io.xdlink.rails.verbs;

import io.xdlink.rails.frame.FrameException;
import io.xdlink.rails.frame.FrameView;
import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;

/** Each kind of queued control frame lays its named fields into the frame's bytes where the peer reads them. */
class ControlFrameTest {

    /** Writes {@code c} as a frame and reads it back the way a receiving engine does. */
    private static FrameView sent(ControlFrame c) throws FrameException {
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
        FrameView v = sent(new ControlFrame.Nak(0x1_0005, 0x7FFF_FFF0, NakReason.RECEIVER_NOT_READY));
        assertThat(v.opcode()).isEqualTo(Opcode.NAK);
        assertThat(v.nakQpn()).isEqualTo(0x1_0005);
        assertThat(v.nakMsn()).isEqualTo(0x7FFF_FFF0);
        assertThat(v.nakReason()).isEqualTo(NakReason.RECEIVER_NOT_READY);
        assertThat(v.epoch()).isEqualTo(7);
        assertThat(v.seq()).isEqualTo(1234);
    }

    @Test
    void aConnectRequestNamesTheListenerAndTheRequestersLimits() throws FrameException {
        FrameView v = sent(new ControlFrame.ConnectRequest(0xDEAD_BEEF_0000_0001L, 42, 0x303, 64, 1024));
        assertThat(v.opcode()).isEqualTo(Opcode.CONNECT_REQUEST);
        assertThat(v.connId()).isEqualTo(0xDEAD_BEEF_0000_0001L);
        assertThat(v.connListener()).isEqualTo(42);
        assertThat(v.connSrcQpn()).isEqualTo(0x303);
        assertThat(v.connMaxMessages()).isEqualTo(64);
        assertThat(v.connPsnWindow()).isEqualTo(1024);
    }

    @Test
    void aConnectReplyNamesTheRequesterAndTheAcceptor() throws FrameException {
        FrameView v = sent(new ControlFrame.ConnectReply(-5L, 0x404, 0x505, 128, 2048));
        assertThat(v.opcode()).isEqualTo(Opcode.CONNECT_REPLY);
        assertThat(v.connId()).isEqualTo(-5L);
        assertThat(v.connDstQpn()).isEqualTo(0x404);
        assertThat(v.connSrcQpn()).isEqualTo(0x505);
        assertThat(v.connMaxMessages()).isEqualTo(128);
        assertThat(v.connPsnWindow()).isEqualTo(2048);
    }

    @Test
    void aConnectRejectCarriesTheRequestAndTheReason() throws FrameException {
        FrameView v = sent(new ControlFrame.ConnectReject(77L, RejectReason.BACKLOG_FULL));
        assertThat(v.opcode()).isEqualTo(Opcode.CONNECT_REJECT);
        assertThat(v.connId()).isEqualTo(77L);
        assertThat(v.rejectReason()).isEqualTo(RejectReason.BACKLOG_FULL);
    }

    @Test
    void aDisconnectNamesBothQueuePairs() throws FrameException {
        FrameView v = sent(new ControlFrame.Disconnect(0x606, 0x707));
        assertThat(v.opcode()).isEqualTo(Opcode.DISCONNECT);
        assertThat(v.disconnectDstQpn()).isEqualTo(0x606);
        assertThat(v.disconnectSrcQpn()).isEqualTo(0x707);
    }

    @Test
    void onlyANakAndADisconnectWaitBehindAnOwedAck() {
        assertThat(new ControlFrame.Nak(1, 1, NakReason.REMOTE_ACCESS).waitsForAck()).isTrue();
        assertThat(new ControlFrame.Disconnect(1, 2).waitsForAck()).isTrue();
        assertThat(new ControlFrame.ConnectRequest(1, 1, 1, 1, 16).waitsForAck()).isFalse();
        assertThat(new ControlFrame.ConnectReply(1, 1, 1, 1, 16).waitsForAck()).isFalse();
        assertThat(new ControlFrame.ConnectReject(1, RejectReason.NO_LISTENER).waitsForAck()).isFalse();
    }

    @Test
    void theOutboxCountsNaksAsTheyAreQueued() {
        EngineCounters counters = new EngineCounters();
        ControlOutbox box = new ControlOutbox(counters);
        box.add(new ControlFrame.Nak(3, 9, NakReason.INVALID_REQUEST));
        box.add(new ControlFrame.Disconnect(3, 4));
        box.add(new ControlFrame.Nak(3, 10, NakReason.INVALID_REQUEST));
        assertThat(box.size()).isEqualTo(3);
        assertThat(counters.nakFramesQueued).isEqualTo(2);
        // No rail is up: nothing goes, nothing is lost, and no NAK counts as sent.
        assertThat(box.send(new FrameOut(), 0, false, null, null, java.util.List.of())).isZero();
        assertThat(box.size()).isEqualTo(3);
        assertThat(counters.nakFramesSent).isZero();
    }
}
