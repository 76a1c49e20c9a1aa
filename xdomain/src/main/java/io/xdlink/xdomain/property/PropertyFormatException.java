package io.xdlink.xdomain.property;

import io.xdlink.xdomain.XdomainFormatException;

/** A property block or tree that breaks the format rules; names the field (for example {@code entry 2 length}). */
public final class PropertyFormatException extends XdomainFormatException {
    private static final long serialVersionUID = 1L;

    public PropertyFormatException(String field, String message) {
        super(field, message);
    }
}
