package io.xdlink.rails.frame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Frame} values to bytes and back. Decoding runs exactly the checks the progress engine runs
 * ({@link FrameView#wrap}), so whatever this accepts the engine accepts, and the other way round.
 */
public final class FrameCodec {
    private FrameCodec() {
    }

    /** Bytes {@code frame} takes on the wire. */
    public static int encodedBytes(Frame frame) {
        return FrameEncoder.frameBytes(frame.opcode(), payloadLength(frame));
    }

    private static int payloadLength(Frame frame) {
        return switch (frame) {
            case Frame.Write w -> w.payload().length;
            case Frame.WriteWithImm w -> w.payload().length;
            case Frame.Send s -> s.payload().length;
            case Frame.Ack a -> FrameEncoder.ackPayload(a.rails().size(), a.qps().size());
            default -> 0;
        };
    }

    /** Encodes a frame into a new array. */
    public static byte[] encode(Frame frame) {
        byte[] out = new byte[encodedBytes(frame)];
        encode(frame, MemorySegment.ofArray(out), 0);
        return out;
    }

    /**
     * Encodes a frame at {@code offset} of {@code into}.
     *
     * @return the frame's length
     * @throws IllegalArgumentException when the frame does not fit the format (too long, too many entries)
     */
    public static int encode(Frame frame, MemorySegment into, long offset) {
        int payload = payloadLength(frame);
        int bytes = FrameEncoder.frameBytes(frame.opcode(), payload);
        if (bytes > FrameLayout.MAX_STREAM_FRAME_BYTES) {
            throw new IllegalArgumentException(frame.opcode() + " of " + bytes + " bytes exceeds "
                    + FrameLayout.MAX_STREAM_FRAME_BYTES);
        }
        Frame.Header h = frame.header();
        FrameEncoder.common(into, offset, frame.opcode(), h.flags(), h.epoch(), h.seq(), h.credit(), h.echo(),
                payload);
        switch (frame) {
            case Frame.Write w -> {
                FrameEncoder.data(into, offset, w.qpn(), w.msn(), w.psn(), w.offset(), w.total());
                FrameEncoder.target(into, offset, w.rkey(), w.raddr());
                copyPayload(w.payload(), into, offset + Opcode.WRITE.headerBytes());
            }
            case Frame.WriteWithImm w -> {
                FrameEncoder.data(into, offset, w.qpn(), w.msn(), w.psn(), w.offset(), w.total());
                FrameEncoder.target(into, offset, w.rkey(), w.raddr());
                FrameEncoder.writeImm(into, offset, w.imm(), w.recvIndex());
                copyPayload(w.payload(), into, offset + Opcode.WRITE_WITH_IMM.headerBytes());
            }
            case Frame.Send s -> {
                FrameEncoder.data(into, offset, s.qpn(), s.msn(), s.psn(), s.offset(), s.total());
                FrameEncoder.send(into, offset, s.recvIndex(), s.imm());
                copyPayload(s.payload(), into, offset + Opcode.SEND.headerBytes());
            }
            case Frame.Ack a -> {
                if (a.rails().size() > FrameLayout.MAX_ACK_RAILS || a.qps().size() > 0xFFFF) {
                    throw new IllegalArgumentException("an ACK speaks for at most " + FrameLayout.MAX_ACK_RAILS
                            + " rails");
                }
                FrameEncoder.ackCounts(into, offset, a.rails().size(), a.qps().size());
                for (int i = 0; i < a.rails().size(); i++) {
                    Frame.RailAck r = a.rails().get(i);
                    FrameEncoder.ackRail(into, offset, i, r.rail(), r.epoch(), r.position(), r.credit(), r.map());
                }
                for (int j = 0; j < a.qps().size(); j++) {
                    Frame.QpAck q = a.qps().get(j);
                    FrameEncoder.ackQp(into, offset, a.rails().size(), j, q.qpn(), q.msn(), q.psn());
                }
            }
            case Frame.Credit c -> FrameEncoder.credit(into, offset, c.nextSeq());
            case Frame.Nak n -> FrameEncoder.nak(into, offset, n.qpn(), n.msn(), n.reason());
            case Frame.Hello hello -> FrameEncoder.hello(into, offset, hello.device(), hello.rail(),
                    hello.frameBytes(), hello.window());
            case Frame.ConnectRequest r -> FrameEncoder.connect(into, offset, r.connId(), r.listenerId(), r.srcQpn(),
                    r.maxMessages(), r.psnWindow());
            case Frame.ConnectReply r -> FrameEncoder.connect(into, offset, r.connId(), r.dstQpn(), r.srcQpn(),
                    r.maxMessages(), r.psnWindow());
            case Frame.ConnectReject r -> FrameEncoder.reject(into, offset, r.connId(), r.reason());
            case Frame.Disconnect d -> FrameEncoder.disconnect(into, offset, d.dstQpn(), d.srcQpn());
        }
        new FrameEncoder().seal(into, offset, bytes);
        return bytes;
    }

    private static void copyPayload(byte[] payload, MemorySegment into, long at) {
        MemorySegment.copy(payload, 0, into, ValueLayout.JAVA_BYTE, at, payload.length);
    }

    /** Decodes one whole frame; the same checks as the engine's. */
    public static Frame decode(MemorySegment bytes) throws FrameException {
        return toFrame(new FrameView().wrap(bytes));
    }

    /** The value of the frame a view currently reads. */
    public static Frame toFrame(FrameView v) {
        Frame.Header h = new Frame.Header(v.flags(), v.epoch(), v.seq(), v.credit(), v.echo());
        return switch (v.opcode()) {
            case WRITE -> new Frame.Write(h, v.qpn(), v.msn(), v.psn(), v.offset(), v.total(), v.rkey(), v.raddr(),
                    payload(v));
            case WRITE_WITH_IMM -> new Frame.WriteWithImm(h, v.qpn(), v.msn(), v.psn(), v.offset(), v.total(),
                    v.rkey(), v.raddr(), v.imm(), v.recvIndex(), payload(v));
            case SEND -> new Frame.Send(h, v.qpn(), v.msn(), v.psn(), v.offset(), v.total(), v.recvIndex(), v.imm(),
                    payload(v));
            case ACK -> {
                List<Frame.RailAck> rails = new ArrayList<>(v.ackRailCount());
                for (int i = 0; i < v.ackRailCount(); i++) {
                    rails.add(new Frame.RailAck(v.ackRail(i), v.ackRailEpoch(i), v.ackPosition(i), v.ackCredit(i),
                            v.ackMap(i)));
                }
                List<Frame.QpAck> qps = new ArrayList<>(v.ackQpCount());
                for (int j = 0; j < v.ackQpCount(); j++) {
                    qps.add(new Frame.QpAck(v.ackQpn(j), v.ackMsn(j), v.ackPsn(j)));
                }
                yield new Frame.Ack(h, rails, qps);
            }
            case CREDIT -> new Frame.Credit(h, v.nextSeq());
            case NAK -> new Frame.Nak(h, v.nakQpn(), v.nakMsn(), v.nakReason());
            case HELLO -> new Frame.Hello(h, v.helloDevice(), v.helloRail(), v.helloFrameBytes(), v.helloWindow());
            case CONNECT_REQUEST -> new Frame.ConnectRequest(h, v.connId(), v.connListener(), v.connSrcQpn(),
                    v.connMaxMessages(), v.connPsnWindow());
            case CONNECT_REPLY -> new Frame.ConnectReply(h, v.connId(), v.connDstQpn(), v.connSrcQpn(),
                    v.connMaxMessages(), v.connPsnWindow());
            case CONNECT_REJECT -> new Frame.ConnectReject(h, v.connId(), v.rejectReason());
            case DISCONNECT -> new Frame.Disconnect(h, v.disconnectDstQpn(), v.disconnectSrcQpn());
        };
    }

    private static byte[] payload(FrameView v) {
        return v.payloadSegment().asSlice(v.payloadOffset(), v.payloadLength()).toArray(ValueLayout.JAVA_BYTE);
    }
}
