package io.xdlink.xdomain.packet;

import java.util.Optional;

/** Error codes of an XDP ERROR_RESPONSE. */
public enum XdpError {
    SUCCESS(0),
    UNKNOWN_PACKET(1),
    UNKNOWN_DOMAIN(2),
    NOT_SUPPORTED(3),
    NOT_READY(4);

    private final int code;

    XdpError(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Optional<XdpError> of(int code) {
        for (XdpError e : values()) {
            if (e.code == code) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** {@code NOT_READY (4)} or {@code 0x00000009 (unknown)}. */
    public static String describe(int code) {
        return of(code).map(e -> e.name() + " (" + code + ")")
                .orElseGet(() -> String.format("0x%08x (unknown)", code));
    }
}
