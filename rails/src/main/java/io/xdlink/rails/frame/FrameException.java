package io.xdlink.rails.frame;

/**
 * A frame that is malformed, truncated, corrupted or hostile, naming the field that gave it away and its value.
 * Rails see these at the rate of injected faults, so the exception carries no stack trace.
 */
public final class FrameException extends Exception {
    private static final long serialVersionUID = 1L;

    private final FrameField field;
    private final long value;

    public FrameException(FrameField field, long value, String message) {
        super(field.wireName() + " " + value + ": " + message, null, false, false);
        this.field = field;
        this.value = value;
    }

    /** The field that made the frame unacceptable. */
    public FrameField field() {
        return field;
    }

    /** The offending value as read from the frame (a length, a code, a computed CRC...). */
    public long value() {
        return value;
    }
}
