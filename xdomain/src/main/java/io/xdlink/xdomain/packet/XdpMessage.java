package io.xdlink.xdomain.packet;

import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.Objects;

/**
 * One XDomain discovery protocol message; one record per message type. Records hold field values, never raw
 * bytes: {@link XdpCodec} turns them into the exact wire form and back. Reserved fields are written as zero and
 * ignored when read, as Linux does.
 */
public sealed interface XdpMessage {

    XdpHeader header();

    XdpType type();

    /** The PDF this message travels in. */
    default Pdf pdf() {
        return type().pdf();
    }

    /** Checks an unsigned field's range on construction, so an encoded message always fits its wire field. */
    private static int unsigned(String field, int value, int bits) {
        if (value < 0 || value >= 1 << bits) {
            throw new IllegalArgumentException(field + " must fit " + bits + " bits: " + value);
        }
        return value;
    }

    private static <T> T present(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    /** UUID_REQUEST_OLD (1): the type older Thunderbolt hosts send; answered like {@link UuidRequest}. */
    record UuidRequestOld(XdpHeader header) implements XdpMessage {
        public UuidRequestOld {
            present("header", header);
        }

        @Override
        public XdpType type() {
            return XdpType.UUID_REQUEST_OLD;
        }
    }

    /** UUID_REQUEST (12). */
    record UuidRequest(XdpHeader header) implements XdpMessage {
        public UuidRequest {
            present("header", header);
        }

        @Override
        public XdpType type() {
            return XdpType.UUID_REQUEST;
        }
    }

    /** UUID_RESPONSE (2): the responder's domain UUID and the route the request came in on. */
    record UuidResponse(XdpHeader header, UUID sourceUuid, long sourceRoute) implements XdpMessage {
        public UuidResponse {
            present("header", header);
            present("sourceUuid", sourceUuid);
        }

        @Override
        public XdpType type() {
            return XdpType.UUID_RESPONSE;
        }
    }

    /** PROPERTIES_REQUEST (3): asks for the block from dword {@code offset}. */
    record PropertiesRequest(XdpHeader header, UUID sourceUuid, UUID destinationUuid, int offset)
            implements XdpMessage {
        public PropertiesRequest {
            present("header", header);
            present("sourceUuid", sourceUuid);
            present("destinationUuid", destinationUuid);
            unsigned("offset", offset, 16);
        }

        @Override
        public XdpType type() {
            return XdpType.PROPERTIES_REQUEST;
        }
    }

    /**
     * PROPERTIES_RESPONSE (4): one chunk of at most {@link #MAX_DATA} dwords of the responder's block.
     *
     * @param dataLength the whole block, in dwords
     * @param generation the responder's property-block generation (u32)
     * @param data       the chunk's words, as values (the block's words)
     */
    record PropertiesResponse(XdpHeader header, UUID sourceUuid, UUID destinationUuid, int offset, int dataLength,
                              int generation, int[] data) implements XdpMessage {
        /** At most 45 dwords of block per response: (256 - 4 - 72) / 4. */
        public static final int MAX_DATA = 45;

        public PropertiesResponse {
            present("header", header);
            present("sourceUuid", sourceUuid);
            present("destinationUuid", destinationUuid);
            unsigned("offset", offset, 16);
            unsigned("dataLength", dataLength, 16);
            data = present("data", data).clone();
            if (data.length > MAX_DATA) {
                throw new IllegalArgumentException("at most " + MAX_DATA + " data dwords per response: " + data.length);
            }
        }

        @Override
        public XdpType type() {
            return XdpType.PROPERTIES_RESPONSE;
        }

        @Override
        public int[] data() {
            return data.clone();
        }

        /** Number of data dwords, without copying them. */
        public int dataDwords() {
            return data.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PropertiesResponse r && header.equals(r.header) && sourceUuid.equals(r.sourceUuid)
                    && destinationUuid.equals(r.destinationUuid) && offset == r.offset
                    && dataLength == r.dataLength && generation == r.generation && Arrays.equals(data, r.data);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hash(header, sourceUuid, destinationUuid, offset, dataLength, generation)
                    + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "PropertiesResponse[header=" + header + ", sourceUuid=" + sourceUuid + ", destinationUuid="
                    + destinationUuid + ", offset=" + offset + ", dataLength=" + dataLength + ", generation="
                    + Integer.toUnsignedString(generation) + ", data=" + data.length + " dwords]";
        }
    }

    /** PROPERTIES_CHANGED_REQUEST (5): the sender's block changed; read it again. */
    record PropertiesChangedRequest(XdpHeader header, UUID sourceUuid) implements XdpMessage {
        public PropertiesChangedRequest {
            present("header", header);
            present("sourceUuid", sourceUuid);
        }

        @Override
        public XdpType type() {
            return XdpType.PROPERTIES_CHANGED_REQUEST;
        }
    }

    /** PROPERTIES_CHANGED_RESPONSE (6): four zero bytes of body. */
    record PropertiesChangedResponse(XdpHeader header) implements XdpMessage {
        public PropertiesChangedResponse {
            present("header", header);
        }

        @Override
        public XdpType type() {
            return XdpType.PROPERTIES_CHANGED_RESPONSE;
        }
    }

    /** ERROR_RESPONSE (7); {@code error} is kept as received even when it is not one of {@link XdpError}. */
    record ErrorResponse(XdpHeader header, int error) implements XdpMessage {
        public ErrorResponse {
            present("header", header);
        }

        public ErrorResponse(XdpHeader header, XdpError error) {
            this(header, error.code());
        }

        @Override
        public XdpType type() {
            return XdpType.ERROR_RESPONSE;
        }

        public Optional<XdpError> known() {
            return XdpError.of(error);
        }
    }

    /** LINK_STATE_STATUS_REQUEST (15). */
    record LinkStateStatusRequest(XdpHeader header) implements XdpMessage {
        public LinkStateStatusRequest {
            present("header", header);
        }

        @Override
        public XdpType type() {
            return XdpType.LINK_STATE_STATUS_REQUEST;
        }
    }

    /**
     * LINK_STATE_STATUS_RESPONSE (16): the responder's lane adapter as LANE_ADP_CS_0/1 report it.
     *
     * @param slw supported link width (bit mask: 0x1 single, 0x2 dual)
     * @param tlw target link width (0x1 single, 0x3 dual)
     * @param sls supported link speeds
     * @param tls target link speed
     */
    record LinkStateStatusResponse(XdpHeader header, int status, int slw, int tlw, int sls, int tls)
            implements XdpMessage {
        public LinkStateStatusResponse {
            present("header", header);
            unsigned("slw", slw, 8);
            unsigned("tlw", tlw, 8);
            unsigned("sls", sls, 8);
            unsigned("tls", tls, 8);
        }

        @Override
        public XdpType type() {
            return XdpType.LINK_STATE_STATUS_RESPONSE;
        }
    }

    /** LINK_STATE_CHANGE_REQUEST (17): asks the peer to go to target width {@code tlw} at target speed {@code tls}. */
    record LinkStateChangeRequest(XdpHeader header, int tlw, int tls) implements XdpMessage {
        public LinkStateChangeRequest {
            present("header", header);
            unsigned("tlw", tlw, 8);
            unsigned("tls", tls, 8);
        }

        @Override
        public XdpType type() {
            return XdpType.LINK_STATE_CHANGE_REQUEST;
        }
    }

    /** LINK_STATE_CHANGE_RESPONSE (18). */
    record LinkStateChangeResponse(XdpHeader header, int status) implements XdpMessage {
        public LinkStateChangeResponse {
            present("header", header);
        }

        @Override
        public XdpType type() {
            return XdpType.LINK_STATE_CHANGE_RESPONSE;
        }
    }
}
