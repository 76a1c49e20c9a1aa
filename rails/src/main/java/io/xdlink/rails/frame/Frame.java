package io.xdlink.rails.frame;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.Objects;

/**
 * Every frame of the format as a value, for tools, tests and diagnostics ({@link FrameCodec} turns them into bytes
 * and back). The progress engine reads and writes the same bytes in place through {@link FrameView} and
 * {@link FrameEncoder} without making these objects.
 */
public sealed interface Frame {

    /** The common header's fields that are not implied by the frame's kind and size. */
    record Header(int flags, int epoch, int seq, int credit, int echo) {
        public Header {
            if (epoch < 0 || epoch > 255) {
                throw new IllegalArgumentException("epoch is one byte: " + epoch);
            }
            if (echo < 0 || echo > 0xFFFF) {
                throw new IllegalArgumentException("echo is 16 bits: " + echo);
            }
            if (flags < 0 || flags > 255) {
                throw new IllegalArgumentException("flags are one byte: " + flags);
            }
        }
    }

    Header header();

    Opcode opcode();

    /** Bytes of an RDMA write. */
    record Write(Header header, int qpn, int msn, int psn, long offset, long total, int rkey, long raddr,
                 byte[] payload) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.WRITE;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Write w && header.equals(w.header) && qpn == w.qpn && msn == w.msn && psn == w.psn
                    && offset == w.offset && total == w.total && rkey == w.rkey && raddr == w.raddr
                    && Arrays.equals(payload, w.payload);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(header, qpn, msn, psn, offset, total, rkey, raddr)
                    + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Write[" + header + ", qpn=" + qpn + ", msn=" + msn + ", psn=" + psn + ", offset=" + offset
                    + ", total=" + total + ", rkey=" + rkey + ", raddr=" + raddr + ", " + payload.length + " bytes]";
        }
    }

    /** Bytes of an RDMA write with an immediate, consuming a posted receive. */
    record WriteWithImm(Header header, int qpn, int msn, int psn, long offset, long total, int rkey, long raddr,
                        int imm, int recvIndex, byte[] payload) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.WRITE_WITH_IMM;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof WriteWithImm w && header.equals(w.header) && qpn == w.qpn && msn == w.msn
                    && psn == w.psn && offset == w.offset && total == w.total && rkey == w.rkey && raddr == w.raddr
                    && imm == w.imm && recvIndex == w.recvIndex && Arrays.equals(payload, w.payload);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(header, qpn, msn, psn, offset, total, rkey, raddr, imm, recvIndex)
                    + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "WriteWithImm[" + header + ", qpn=" + qpn + ", msn=" + msn + ", psn=" + psn + ", offset=" + offset
                    + ", total=" + total + ", rkey=" + rkey + ", raddr=" + raddr + ", imm=" + imm + ", recvIndex="
                    + recvIndex + ", " + payload.length + " bytes]";
        }
    }

    /** Bytes of a send into a posted receive. */
    record Send(Header header, int qpn, int msn, int psn, long offset, long total, int recvIndex, int imm,
                byte[] payload) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.SEND;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Send w && header.equals(w.header) && qpn == w.qpn && msn == w.msn && psn == w.psn
                    && offset == w.offset && total == w.total && recvIndex == w.recvIndex && imm == w.imm
                    && Arrays.equals(payload, w.payload);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(header, qpn, msn, psn, offset, total, recvIndex, imm)
                    + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Send[" + header + ", qpn=" + qpn + ", msn=" + msn + ", psn=" + psn + ", offset=" + offset
                    + ", total=" + total + ", recvIndex=" + recvIndex + ", imm=" + imm + ", " + payload.length
                    + " bytes]";
        }
    }

    /** One rail's line in an ACK. */
    record RailAck(int rail, int epoch, int position, int credit, long map) {
    }

    /** One queue pair's line in an ACK. */
    record QpAck(int qpn, int msn, int psn) {
    }

    /** Cumulative acknowledgement of a peer's rails and queue pairs. */
    record Ack(Header header, List<RailAck> rails, List<QpAck> qps) implements Frame {
        public Ack {
            rails = List.copyOf(rails);
            qps = List.copyOf(qps);
        }

        @Override
        public Opcode opcode() {
            return Opcode.ACK;
        }
    }

    /** A credit update or probe; {@code nextSeq} is the sender's next sequence on this rail. */
    record Credit(Header header, int nextSeq) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.CREDIT;
        }
    }

    /** A refused message. */
    record Nak(Header header, int qpn, int msn, NakReason reason) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.NAK;
        }
    }

    /** The rail handshake. */
    record Hello(Header header, UUID device, int rail, int frameBytes, int window) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.HELLO;
        }
    }

    /** A connection request to a listener. */
    record ConnectRequest(Header header, long connId, int listenerId, int srcQpn, int maxMessages, int psnWindow)
            implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.CONNECT_REQUEST;
        }
    }

    /** A listener's answer: its queue pair {@code srcQpn} is connected to the requester's {@code dstQpn}. */
    record ConnectReply(Header header, long connId, int dstQpn, int srcQpn, int maxMessages, int psnWindow)
            implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.CONNECT_REPLY;
        }
    }

    /** A refused connection request. */
    record ConnectReject(Header header, long connId, RejectReason reason) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.CONNECT_REJECT;
        }
    }

    /** The sender's queue pair {@code srcQpn} is gone; the recipient's {@code dstQpn} moves to error. */
    record Disconnect(Header header, int dstQpn, int srcQpn) implements Frame {
        @Override
        public Opcode opcode() {
            return Opcode.DISCONNECT;
        }
    }
}
