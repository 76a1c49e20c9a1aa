package io.xdlink.rails;

import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.Params;

import java.util.List;

/**
 * The rails parameters resolved for one device, in the units the engine uses.
 *
 * @param stripeMinBytes       {@code stripe_min_bytes}
 * @param ackEveryFrames       {@code ack_every_frames}
 * @param ackDelayNanos        {@code ack_delay_us}
 * @param inflightBytes        {@code inflight_bytes}
 * @param retransmitNanos      {@code retransmit_timeout_us}
 * @param railTimeoutNanos     {@code rail_timeout_ms}
 * @param peerTimeoutNanos     {@code peer_timeout_ms}
 * @param railWindowFrames     {@code rail_window_frames}
 * @param controlReserveFrames {@code control_reserve_frames}
 * @param frameBytes           {@code frame_bytes}
 * @param frameCrc             {@code frame_crc}: auto, full or header
 * @param qpMaxSendWr          {@code qp_max_send_wr}
 * @param qpMaxRecvWr          {@code qp_max_recv_wr}
 * @param qpPsnWindow          {@code qp_psn_window}, a power of two
 * @param rnrRetry             {@code rnr_retry}, 7 forever
 * @param rnrTimerNanos        {@code rnr_timer_us}
 * @param connectTimeoutNanos  {@code connect_timeout_ms}
 * @param listenBacklog        {@code listen_backlog}
 * @param idleStrategy         {@code idle_strategy}: backoff or spin
 * @param railsPerLink         {@code rails_per_link}
 */
public record RailsSettings(long stripeMinBytes, int ackEveryFrames, long ackDelayNanos, long inflightBytes,
                            long retransmitNanos, long railTimeoutNanos, long peerTimeoutNanos, int railWindowFrames,
                            int controlReserveFrames, int frameBytes, String frameCrc, int qpMaxSendWr,
                            int qpMaxRecvWr, int qpPsnWindow, int rnrRetry, long rnrTimerNanos,
                            long connectTimeoutNanos, int listenBacklog, String idleStrategy, int railsPerLink) {

    public RailsSettings {
        if (Integer.bitCount(qpPsnWindow) != 1) {
            qpPsnWindow = Integer.highestOneBit(qpPsnWindow);
        }
        if (!List.of("auto", "full", "header").contains(frameCrc)) {
            throw new IllegalArgumentException("frame_crc is auto, full or header, not " + frameCrc);
        }
    }

    /** The rails parameters out of a resolved parameter set. */
    public static RailsSettings from(Params p) {
        return from(p, p.get(RailsParams.STRIPE_MIN_BYTES), p.get(RailsParams.FRAME_BYTES).intValue());
    }

    /**
     * The rails parameters for a device on {@code fabric}: where {@code stripe_min_bytes} or {@code frame_bytes} was
     * not set, the fabric's own ({@link Fabric#stripeMinBytes}, {@link Fabric#frameBytes}).
     *
     * @throws ParamException when {@code frame_bytes} was set larger than the fabric's rails carry
     */
    public static RailsSettings from(Params p, Fabric fabric) {
        long stripeMinBytes = isSet(p, RailsParams.STRIPE_MIN_BYTES) ? p.get(RailsParams.STRIPE_MIN_BYTES)
                : fabric.stripeMinBytes();
        int frameBytes = isSet(p, RailsParams.FRAME_BYTES) ? p.get(RailsParams.FRAME_BYTES).intValue()
                : fabric.frameBytes();
        if (frameBytes > fabric.maxFrameBytes()) {
            throw new ParamException("frame_bytes=" + frameBytes + " (" + p.origin(RailsParams.FRAME_BYTES)
                    + ") is larger than this fabric's rails carry: at most " + fabric.maxFrameBytes()
                    + " bytes a frame (a USB4 ring's DMA frame); frames above 4096 bytes go only over TCP rails");
        }
        return from(p, stripeMinBytes, frameBytes);
    }

    private static boolean isSet(Params p, ParamSpec<?> spec) {
        return p.origin(spec).source() != Origin.Source.DEFAULT;
    }

    private static RailsSettings from(Params p, long stripeMinBytes, int frameBytes) {
        return new RailsSettings(
                stripeMinBytes,
                p.get(RailsParams.ACK_EVERY_FRAMES).intValue(),
                p.get(RailsParams.ACK_DELAY_US) * 1_000,
                p.get(RailsParams.INFLIGHT_BYTES),
                p.get(RailsParams.RETRANSMIT_TIMEOUT_US) * 1_000,
                p.get(RailsParams.RAIL_TIMEOUT_MS) * 1_000_000,
                p.get(RailsParams.PEER_TIMEOUT_MS) * 1_000_000,
                p.get(RailsParams.RAIL_WINDOW_FRAMES).intValue(),
                p.get(RailsParams.CONTROL_RESERVE_FRAMES).intValue(),
                frameBytes,
                p.get(RailsParams.FRAME_CRC),
                p.get(RailsParams.QP_MAX_SEND_WR).intValue(),
                p.get(RailsParams.QP_MAX_RECV_WR).intValue(),
                p.get(RailsParams.QP_PSN_WINDOW).intValue(),
                p.get(RailsParams.RNR_RETRY).intValue(),
                p.get(RailsParams.RNR_TIMER_US) * 1_000,
                p.get(RailsParams.CONNECT_TIMEOUT_MS) * 1_000_000,
                p.get(RailsParams.LISTEN_BACKLOG).intValue(),
                p.get(RailsParams.IDLE_STRATEGY),
                p.get(RailsParams.RAILS_PER_LINK).intValue());
    }

    /** Every rails parameter at its default. */
    public static RailsSettings defaults() {
        return from(Params.defaults(ParamRegistry.of(List.of(new RailsParams()))));
    }

    /**
     * Defaults with some parameters set by name, for tests and tools: {@code of("ack_delay_us", "50")}.
     *
     * @throws ParamException naming an unknown parameter or a bad value
     */
    public static RailsSettings of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs");
        }
        Params p = Params.defaults(ParamRegistry.of(List.of(new RailsParams())));
        for (int i = 0; i < namesAndValues.length; i += 2) {
            p = p.with(namesAndValues[i], namesAndValues[i + 1], Origin.explicit("RailsSettings.of"));
        }
        return from(p);
    }

    /** Frames of the credit window reserved for control frames: the parameter, at most a quarter of a window. */
    public int controlReserveFor(int window) {
        return Math.min(controlReserveFrames, window / 4);
    }
}
