package io.xdlink.rails.engine;

import io.xdlink.rails.frame.NakReason;
import io.xdlink.rails.frame.Opcode;
import io.xdlink.rails.frame.RejectReason;

/**
 * A sequenced control frame a pool has queued for its peer ({@link ControlOutbox}): one record per kind, each with
 * the fields its frame carries by name. The ACK is not one of them: it is coalesced, never queued
 * ({@link AckCoalescer}).
 */
sealed interface QueuedControl {

    /** The peer refused message {@code msn} of its queue pair {@code peerQpn}. */
    record Nak(int peerQpn, int msn, NakReason reason) implements QueuedControl {
    }

    /** Queue pair {@code srcQpn} asks the peer's listener {@code listener} for a connection. */
    record ConnectRequest(long connId, int listener, int srcQpn, int maxMessages, int psnWindow)
            implements QueuedControl {
    }

    /** Queue pair {@code srcQpn} accepted the request of the peer's queue pair {@code dstQpn}. */
    record ConnectReply(long connId, int dstQpn, int srcQpn, int maxMessages, int psnWindow) implements QueuedControl {
    }

    /** The request {@code connId} is refused. */
    record ConnectReject(long connId, RejectReason reason) implements QueuedControl {
    }

    /**
     * Queue pair {@code srcQpn} is gone: the peer's {@code dstQpn} flushes. It follows the last ACK on that ACK's
     * rail (frames on one rail arrive in order), so it cannot overtake it.
     */
    record Disconnect(int dstQpn, int srcQpn) implements QueuedControl {
    }

    /**
     * The frame must not overtake an ACK this side owes: what this side completed before it must reach the peer
     * first, or the peer would flush (DISCONNECT) or fail (NAK) requests whose bytes had in fact arrived.
     */
    default boolean waitsForAck() {
        return this instanceof Nak || this instanceof Disconnect;
    }

    /**
     * Starts {@code out} as this frame, with this frame's fields. One switch over every kind, so the compiler says
     * when a kind is added and not encoded.
     */
    default void writeTo(FrameOut out) {
        switch (this) {
            case Nak n -> {
                out.begin(Opcode.NAK, 0, 0);
                out.nakQpn = n.peerQpn();
                out.nakMsn = n.msn();
                out.nakReason = n.reason();
            }
            case ConnectRequest r -> connect(out, Opcode.CONNECT_REQUEST, r.connId(), r.listener(), r.srcQpn(),
                    r.maxMessages(), r.psnWindow());
            case ConnectReply r -> connect(out, Opcode.CONNECT_REPLY, r.connId(), r.dstQpn(), r.srcQpn(),
                    r.maxMessages(), r.psnWindow());
            case ConnectReject r -> {
                out.begin(Opcode.CONNECT_REJECT, 0, 0);
                out.connId = r.connId();
                out.rejectReason = r.reason();
            }
            case Disconnect d -> {
                out.begin(Opcode.DISCONNECT, 0, 0);
                out.discDst = d.dstQpn();
                out.discSrc = d.srcQpn();
            }
        }
    }

    /** The fields a CONNECT_REQUEST and a CONNECT_REPLY share; {@code a} is the listener or the requester. */
    private static void connect(FrameOut out, Opcode op, long connId, int a, int srcQpn, int maxMessages,
                                int psnWindow) {
        out.begin(op, 0, 0);
        out.connId = connId;
        out.connA = a;
        out.connSrc = srcQpn;
        out.connMaxMessages = maxMessages;
        out.connPsnWindow = psnWindow;
    }
}
