package io.xdlink.xdomain.packet;

import java.util.Optional;

/**
 * XDomain discovery protocol message types with the PDF each travels in and its fixed size. The length field of a
 * packet counts the dwords after the first 12 bytes (route_hi, route_lo, length_sn), so length = size / 4 - 3.
 */
public enum XdpType {
    UUID_REQUEST_OLD(1, Pdf.XDOMAIN_REQ, 32),
    UUID_RESPONSE(2, Pdf.XDOMAIN_RESP, 56),
    PROPERTIES_REQUEST(3, Pdf.XDOMAIN_REQ, 68),
    /** 72 bytes plus 4 per data dword; the size given is the minimum. */
    PROPERTIES_RESPONSE(4, Pdf.XDOMAIN_RESP, 72),
    PROPERTIES_CHANGED_REQUEST(5, Pdf.XDOMAIN_REQ, 48),
    PROPERTIES_CHANGED_RESPONSE(6, Pdf.XDOMAIN_RESP, 36),
    ERROR_RESPONSE(7, Pdf.XDOMAIN_RESP, 36),
    UUID_REQUEST(12, Pdf.XDOMAIN_REQ, 32),
    LINK_STATE_STATUS_REQUEST(15, Pdf.XDOMAIN_REQ, 32),
    LINK_STATE_STATUS_RESPONSE(16, Pdf.XDOMAIN_RESP, 40),
    LINK_STATE_CHANGE_REQUEST(17, Pdf.XDOMAIN_REQ, 36),
    LINK_STATE_CHANGE_RESPONSE(18, Pdf.XDOMAIN_RESP, 36);

    private final int value;
    private final Pdf pdf;
    private final int bytes;

    XdpType(int value, Pdf pdf, int bytes) {
        this.value = value;
        this.pdf = pdf;
        this.bytes = bytes;
    }

    /** The value of the type word. */
    public int value() {
        return value;
    }

    public Pdf pdf() {
        return pdf;
    }

    /** Packet size in bytes without the CRC (the minimum for {@link #PROPERTIES_RESPONSE}). */
    public int bytes() {
        return bytes;
    }

    /** The value of the length field for this fixed size (the minimum for {@link #PROPERTIES_RESPONSE}). */
    public int lengthField() {
        return bytes / 4 - 3;
    }

    public boolean isRequest() {
        return pdf == Pdf.XDOMAIN_REQ;
    }

    public static Optional<XdpType> of(int value) {
        for (XdpType t : values()) {
            if (t.value == value) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
