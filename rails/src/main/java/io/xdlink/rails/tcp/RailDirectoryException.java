package io.xdlink.rails.tcp;

import io.xdlink.xdomain.XdomainFormatException;

/** A peer's TCP rail entries in xdlink's service directory that break the rules; names the entry and field. */
public final class RailDirectoryException extends XdomainFormatException {
    private static final long serialVersionUID = 1L;

    public RailDirectoryException(String field, String message) {
        super(field, message);
    }
}
