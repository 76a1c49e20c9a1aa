package io.xdlink.rails.verbs;

import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;

/**
 * A sequenced control frame a pool has queued for its peer ({@link ControlOutbox}): one record per kind, each with
 * the fields its frame carries, and each laying them into the frame being built. The ACK is not one of them: it is
 * coalesced, never queued ({@link AckCoalescer}).
 */
sealed interface ControlFrame {

    /** Starts {@code out} as this frame, with this frame's fields. */
    void writeTo(FrameOut out);

    /**
     * The frame must not overtake an ACK this side owes: what this side completed before it must reach the peer
     * first, or the peer would flush (DISCONNECT) or fail (NAK) requests whose bytes had in fact arrived.
     */
    default boolean waitsForAck() {
        return false;
    }

    /** The peer refused message {@code msn} of its queue pair {@code peerQpn}. */
    record Nak(int peerQpn, int msn, NakReason reason) implements ControlFrame {
        @Override
        public void writeTo(FrameOut out) {
            out.begin(Opcode.NAK, 0, 0);
            out.nakQpn = peerQpn;
            out.nakMsn = msn;
            out.nakReason = reason;
        }

        @Override
        public boolean waitsForAck() {
            return true;
        }
    }

    /** Queue pair {@code srcQpn} asks the peer's listener {@code listener} for a connection. */
    record ConnectRequest(long connId, int listener, int srcQpn, int maxMessages, int psnWindow)
            implements ControlFrame {
        @Override
        public void writeTo(FrameOut out) {
            out.begin(Opcode.CONNECT_REQUEST, 0, 0);
            out.connId = connId;
            out.connA = listener;
            out.connSrc = srcQpn;
            out.connMaxMessages = maxMessages;
            out.connPsnWindow = psnWindow;
        }
    }

    /** Queue pair {@code srcQpn} accepted the request of the peer's queue pair {@code dstQpn}. */
    record ConnectReply(long connId, int dstQpn, int srcQpn, int maxMessages, int psnWindow) implements ControlFrame {
        @Override
        public void writeTo(FrameOut out) {
            out.begin(Opcode.CONNECT_REPLY, 0, 0);
            out.connId = connId;
            out.connA = dstQpn;
            out.connSrc = srcQpn;
            out.connMaxMessages = maxMessages;
            out.connPsnWindow = psnWindow;
        }
    }

    /** The request {@code connId} is refused. */
    record ConnectReject(long connId, RejectReason reason) implements ControlFrame {
        @Override
        public void writeTo(FrameOut out) {
            out.begin(Opcode.CONNECT_REJECT, 0, 0);
            out.connId = connId;
            out.rejectReason = reason;
        }
    }

    /**
     * Queue pair {@code srcQpn} is gone: the peer's {@code dstQpn} flushes. It follows the last ACK on that ACK's
     * rail (frames on one rail arrive in order), so it cannot overtake it.
     */
    record Disconnect(int dstQpn, int srcQpn) implements ControlFrame {
        @Override
        public void writeTo(FrameOut out) {
            out.begin(Opcode.DISCONNECT, 0, 0);
            out.discDst = dstQpn;
            out.discSrc = srcQpn;
        }

        @Override
        public boolean waitsForAck() {
            return true;
        }
    }
}
