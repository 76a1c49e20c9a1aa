package io.xdlink.xdomain.packet;

import io.xdlink.xdomain.XdomainFormatException;

/** A control packet that breaks the framing or XDomain discovery protocol rules; names the field. */
public final class PacketFormatException extends XdomainFormatException {
    private static final long serialVersionUID = 1L;

    public PacketFormatException(String field, String message) {
        super(field, message);
    }
}
