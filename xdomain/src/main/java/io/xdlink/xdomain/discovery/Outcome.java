package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.packet.XdpMessage;

/** How one request ended. Linux turns each failure into an errno; here each is a {@link Failure} with a detail. */
sealed interface Outcome {

    /** The peer answered with the expected response type. */
    record Answered(XdpMessage response) implements Outcome {
    }

    /** No usable answer. */
    record Failed(Failure failure, String detail) implements Outcome {
    }

    /** Why a request failed. */
    enum Failure {
        /** No matching response within the request timeout. */
        TIMEOUT,
        /** ERROR_RESPONSE NOT_READY (Linux: -EAGAIN). */
        NOT_READY,
        /** ERROR_RESPONSE NOT_SUPPORTED (Linux: -ENOTSUPP, retried like any other failure). */
        NOT_SUPPORTED,
        /** ERROR_RESPONSE UNKNOWN_PACKET or UNKNOWN_DOMAIN, or an error code outside the protocol (-EIO). */
        IO,
        /** A response with a non-zero status (-EREMOTEIO). */
        REMOTE_IO,
        /** A response whose contents break the protocol: wrong offset, impossible length (-EINVAL, -E2BIG). */
        INVALID,
        /** The block changed generation between chunks of one read. */
        TORN,
        /** The channel is closed. */
        CLOSED
    }
}
