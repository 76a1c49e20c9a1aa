package io.xdlink.rails.frame;

/** The flag bits of a frame's flags byte; which ones an opcode may carry is {@link Opcode#allowedFlags()}. */
public final class FrameFlags {
    /**
     * Data frames only: the CRC trailer covers the header alone. Used on rails that neither lose nor corrupt (TCP
     * checksums its own stream), where checking every payload byte twice would cost more than the copy itself.
     */
    public static final int PAYLOAD_UNCHECKED = 0x01;
    /** Data: acknowledge at once, nothing follows soon. CREDIT: answer with your credit position (a probe). */
    public static final int ACK_REQUEST = 0x02;
    /** HELLO: this is the answer to a HELLO. */
    public static final int REPLY = 0x04;
    /** SEND: the immediate field is meaningful. */
    public static final int IMMEDIATE = 0x08;
    /**
     * Data: the sender waits for nothing this frame's acknowledgement brings soon (it reported the work done when it
     * posted it, or only frees a buffer with it), so the receiver may hold the acknowledgement for
     * {@code ack_every_frames} frames, until another acknowledgement goes, or for a quarter of the retransmit timeout,
     * instead of {@code ack_delay_us}. Never together with {@link #ACK_REQUEST}.
     */
    public static final int ACK_LAZY = 0x10;

    private FrameFlags() {
    }

    /** True when {@code flags} has every bit of {@code flag}. */
    public static boolean has(int flags, int flag) {
        return (flags & flag) == flag;
    }
}
