package io.xdlink.rails.tcp;

import io.xdlink.params.Params;
import io.xdlink.rails.frame.FrameLayout;

import java.time.Duration;
import io.xdlink.params.ParamException;

/**
 * The TCP knobs as typed values, read once from {@link Params} so sockets and loops never look a name up on a hot
 * path, and so tests can build one directly.
 *
 * @param socketSendBuffer    SO_SNDBUF of rail sockets, 0 for the kernel's autotuning
 * @param socketReceiveBuffer SO_RCVBUF of rail sockets, 0 for the kernel's autotuning
 * @param railBuffer          user-space batch buffer per rail and direction, bytes
 * @param connectTimeout      how long set-up may wait for the peer
 * @param keepaliveInterval   heartbeat period of a quiet session
 * @param keepaliveTimeout    silence after which a peer is dead
 * @param reconnectInterval   pause between attempts to reach a peer again
 * @param payloadByReference  data frames' payloads go to the socket from their registered memory, not a copy
 * @param readIntoPlace       a WRITE's payloads are read from the socket straight into the registered memory
 * @param congestionControl   TCP congestion control of rail sockets ({@link CongestionControl}), empty for the
 *                            host's default
 */
public record TcpSettings(int socketSendBuffer, int socketReceiveBuffer, int railBuffer, Duration connectTimeout,
                          Duration keepaliveInterval, Duration keepaliveTimeout, Duration reconnectInterval,
                          boolean payloadByReference, boolean readIntoPlace, String congestionControl) {

    /**
     * Smallest batch buffer: what a receiving rail's reader needs ({@link TcpRailTransport#newReader}), the largest
     * frame record whole and the header and heads of the largest run record (a run's payload may go elsewhere).
     */
    public static final int MIN_RAIL_BUFFER = RecordReader.leastCapacity(FrameLayout.MAX_STREAM_FRAME_BYTES,
            TcpRailTransport.RUN_LIMITS);

    /** As the canonical constructor, with the default congestion control. */
    public TcpSettings(int socketSendBuffer, int socketReceiveBuffer, int railBuffer, Duration connectTimeout,
                       Duration keepaliveInterval, Duration keepaliveTimeout, Duration reconnectInterval,
                       boolean payloadByReference, boolean readIntoPlace) {
        this(socketSendBuffer, socketReceiveBuffer, railBuffer, connectTimeout, keepaliveInterval, keepaliveTimeout,
                reconnectInterval, payloadByReference, readIntoPlace, TcpParams.CONGESTION_CONTROL.defaultValue());
    }

    /** As the canonical constructor, payloads by reference (the default). */
    public TcpSettings(int socketSendBuffer, int socketReceiveBuffer, int railBuffer, Duration connectTimeout,
                       Duration keepaliveInterval, Duration keepaliveTimeout, Duration reconnectInterval) {
        this(socketSendBuffer, socketReceiveBuffer, railBuffer, connectTimeout, keepaliveInterval, keepaliveTimeout,
                reconnectInterval, TcpParams.PAYLOAD_BY_REFERENCE.defaultValue(),
                TcpParams.READ_INTO_PLACE.defaultValue());
    }

    public TcpSettings {
        if (socketSendBuffer < 0 || socketReceiveBuffer < 0) {
            throw new IllegalArgumentException("socket buffers must not be negative: send " + socketSendBuffer
                    + ", receive " + socketReceiveBuffer);
        }
        if (railBuffer < MIN_RAIL_BUFFER) {
            throw new IllegalArgumentException("railBuffer " + railBuffer + " is below the minimum " + MIN_RAIL_BUFFER);
        }
        if (!keepaliveTimeout.minus(keepaliveInterval).isPositive()) {
            throw new IllegalArgumentException("keepalive timeout " + keepaliveTimeout.toMillis()
                    + " ms must be longer than the interval " + keepaliveInterval.toMillis() + " ms");
        }
        if (!connectTimeout.isPositive() || !keepaliveInterval.isPositive() || !reconnectInterval.isPositive()) {
            throw new IllegalArgumentException("timeouts and intervals must be positive");
        }
        if (congestionControl == null) {
            throw new IllegalArgumentException("congestionControl must not be null (empty: the host's default)");
        }
    }

    /** Every knob at its declared default. */
    public static TcpSettings defaults() {
        return new TcpSettings(0, 0, TcpParams.RAIL_BUFFER.defaultValue().intValue(),
                Duration.ofMillis(TcpParams.CONNECT_TIMEOUT.defaultValue()),
                Duration.ofMillis(TcpParams.KEEPALIVE_INTERVAL.defaultValue()),
                Duration.ofMillis(TcpParams.KEEPALIVE_TIMEOUT.defaultValue()),
                Duration.ofMillis(TcpParams.RECONNECT_INTERVAL.defaultValue()));
    }

    /**
     * The knobs as resolved.
     *
     * @throws ParamException when the keepalive timeout is not longer than its interval
     */
    public static TcpSettings from(Params params) {
        long interval = params.get(TcpParams.KEEPALIVE_INTERVAL);
        long timeout = params.get(TcpParams.KEEPALIVE_TIMEOUT);
        if (timeout <= interval) {
            throw new ParamException(params.origin(TcpParams.KEEPALIVE_TIMEOUT) + ": "
                    + TcpParams.KEEPALIVE_TIMEOUT.name() + " (" + timeout + " ms) must be longer than "
                    + TcpParams.KEEPALIVE_INTERVAL.name() + " (" + interval + " ms)");
        }
        return new TcpSettings(Math.toIntExact(params.get(TcpParams.SOCKET_SEND_BUFFER)),
                Math.toIntExact(params.get(TcpParams.SOCKET_RECEIVE_BUFFER)),
                Math.toIntExact(params.get(TcpParams.RAIL_BUFFER)),
                Duration.ofMillis(params.get(TcpParams.CONNECT_TIMEOUT)),
                Duration.ofMillis(interval), Duration.ofMillis(timeout),
                Duration.ofMillis(params.get(TcpParams.RECONNECT_INTERVAL)),
                params.get(TcpParams.PAYLOAD_BY_REFERENCE), params.get(TcpParams.READ_INTO_PLACE),
                params.get(TcpParams.CONGESTION_CONTROL).strip());
    }

    /** These settings with other keepalive timing (tests that want a dead peer found fast). */
    public TcpSettings withKeepalive(Duration interval, Duration timeout) {
        return new TcpSettings(socketSendBuffer, socketReceiveBuffer, railBuffer, connectTimeout, interval, timeout,
                reconnectInterval, payloadByReference, readIntoPlace, congestionControl);
    }

    /** These settings with another connect timeout (what is left of a deadline). */
    public TcpSettings withConnectTimeout(Duration timeout) {
        return new TcpSettings(socketSendBuffer, socketReceiveBuffer, railBuffer, timeout, keepaliveInterval,
                keepaliveTimeout, reconnectInterval, payloadByReference, readIntoPlace, congestionControl);
    }

    /** These settings with another congestion control for rail sockets (empty: the host's default). */
    public TcpSettings withCongestionControl(String name) {
        return new TcpSettings(socketSendBuffer, socketReceiveBuffer, railBuffer, connectTimeout, keepaliveInterval,
                keepaliveTimeout, reconnectInterval, payloadByReference, readIntoPlace, name);
    }
}
