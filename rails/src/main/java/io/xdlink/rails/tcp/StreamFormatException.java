package io.xdlink.rails.tcp;

import java.io.IOException;

/**
 * Bytes on a TCP stream that are not what xdlink writes: a length outside its range, a record cut off by the end of
 * the stream, an unknown kind, a wrong magic or version. The message names the stream, the field and the value; the
 * connection that carried them is closed, because after one bad length nothing behind it can be trusted.
 */
public final class StreamFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public StreamFormatException(String message) {
        super(message);
    }
}
