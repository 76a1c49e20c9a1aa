package io.xdlink.xdomain;

import java.util.Objects;

/**
 * Bad XDomain input: a packet, a property block or a hex trace that does not follow the rules. Every decoder in
 * this module throws this (or a subclass) and nothing else for bad input, and always names the offending field, so
 * a trace reader or a log line can say exactly what a peer got wrong.
 */
public class XdomainFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public XdomainFormatException(String field, String message) {
        // No stack trace: a hostile peer can send thousands of bad packets a second, and the field says where.
        super(Objects.requireNonNull(field, "field") + ": " + message, null, false, false);
        this.field = field;
    }

    /** The field that broke a rule, as the protocol names it (for example {@code length} or {@code entry 3 type}). */
    public String field() {
        return field;
    }
}
