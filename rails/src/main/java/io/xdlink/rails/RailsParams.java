package io.xdlink.rails;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;

import java.util.List;

/** The data plane's parameters: striping, acknowledgements, credits, retransmission, queue pair limits. */
public final class RailsParams implements ParamProvider {

    private static final long K = 1024;
    private static final long M = K * K;
    private static final long G = M * K;

    public static final ParamSpec<Long> STRIPE_MIN_BYTES = ParamSpec.builder("stripe_min_bytes",
                    new ParamType.Size(0, G))
            .defaultValue(64 * K).unit("bytes")
            .description("Writes at least this long are cut into one block per rail, weighted by link rate; "
                    + "shorter writes go whole to one rail, the first while it holds under 4 KiB more than the least "
                    + "loaded. Unset, it is 64K on USB4 rings (the simulator) "
                    + "and 1M over TCP rails, where the processors are the limit")
            .build();

    public static final ParamSpec<Long> ACK_EVERY_FRAMES = ParamSpec.builder("ack_every_frames",
                    new ParamType.Int(1, 32, true))
            .defaultValue(16L).unit("frames")
            .description("Data frames received from a peer before a coalesced acknowledgement goes out")
            .build();

    public static final ParamSpec<Long> ACK_DELAY_US = ParamSpec.builder("ack_delay_us",
                    new ParamType.Int(1, 100_000, true))
            .defaultValue(20L).unit("us")
            .description("Longest a received data frame waits for its acknowledgement; a frame whose sender waits for "
                    + "nothing the acknowledgement brings soon (a plugin send already reported done, an "
                    + "advertisement) may wait a quarter of retransmit_timeout_us")
            .build();

    public static final ParamSpec<Long> INFLIGHT_BYTES = ParamSpec.builder("inflight_bytes",
                    new ParamType.Size(64 * K, 16 * G))
            .defaultValue(64 * M).unit("bytes")
            .description("Data bytes a device may have sent and not yet had acknowledged; transfers of any size "
                    + "stream through it")
            .build();

    public static final ParamSpec<Long> RETRANSMIT_TIMEOUT_US = ParamSpec.builder("retransmit_timeout_us",
                    new ParamType.Int(10, 10_000_000, true))
            .defaultValue(2_000L).unit("us")
            .description("Frames unacknowledged this long are sent again; the timeout doubles on each repeat")
            .build();

    public static final ParamSpec<Long> RAIL_TIMEOUT_MS = ParamSpec.builder("rail_timeout_ms",
                    new ParamType.Int(1, 600_000, true))
            .defaultValue(1000L).unit("ms")
            .description("A rail with frames outstanding that shows no progress this long is failed over to the "
                    + "other rails and probed until it returns")
            .build();

    public static final ParamSpec<Long> PEER_TIMEOUT_MS = ParamSpec.builder("peer_timeout_ms",
                    new ParamType.Int(1, 3_600_000, true))
            .defaultValue(10_000L).unit("ms")
            .description("A queue pair whose messages make no progress this long (no rail to its peer works) "
                    + "fails its requests with a retry error")
            .build();

    public static final ParamSpec<Long> RAIL_WINDOW_FRAMES = ParamSpec.builder("rail_window_frames",
                    new ParamType.Int(64, 65_536, true))
            .defaultValue(1024L).unit("frames")
            .description("Receive ring of each rail: the credit window a peer may fill before it waits")
            .build();

    public static final ParamSpec<Long> CONTROL_RESERVE_FRAMES = ParamSpec.builder("control_reserve_frames",
                    new ParamType.Int(2, 1024, true))
            .defaultValue(16L).unit("frames")
            .description("Part of each rail's credit window that only acknowledgements and other control frames "
                    + "may use (capped at a quarter of the window)")
            .build();

    public static final ParamSpec<Long> FRAME_BYTES = ParamSpec.builder("frame_bytes",
                    new ParamType.Int(256, 16384, true))
            .defaultValue(4096L).unit("bytes")
            .description("Largest frame this device sends, header and CRC included. Where not set, the fabric's own: "
                    + "4096 on USB4 rings (a DMA frame, the simulator's), 16384 on TCP rails; above 4096 only on TCP "
                    + "rails")
            .build();

    public static final ParamSpec<String> FRAME_CRC = ParamSpec.builder("frame_crc",
                    new ParamType.Enum(List.of("auto", "full", "header")))
            .defaultValue("auto")
            .description("CRC-32C coverage of data frames: full, header only, or auto (full on lossy rails, header "
                    + "only on rails such as TCP that check their own bytes). Receivers check it on rails that may "
                    + "damage a frame, and on every rail with full")
            .build();

    public static final ParamSpec<Long> QP_MAX_SEND_WR = ParamSpec.builder("qp_max_send_wr",
                    new ParamType.Int(1, 65_536, true))
            .defaultValue(256L).unit("requests")
            .description("Send requests a queue pair may have outstanding (messages in flight)")
            .build();

    public static final ParamSpec<Long> QP_MAX_RECV_WR = ParamSpec.builder("qp_max_recv_wr",
                    new ParamType.Int(1, 65_536, true))
            .defaultValue(256L).unit("requests")
            .description("Receives a queue pair may have posted")
            .build();

    public static final ParamSpec<Long> QP_PSN_WINDOW = ParamSpec.builder("qp_psn_window",
                    new ParamType.Int(64, 1 << 20, true))
            .defaultValue(16_384L).unit("frames")
            .description("Frames of one queue pair in flight, rounded down to a power of two; the receiver keeps "
                    + "one bit per frame to drop duplicates")
            .build();

    public static final ParamSpec<Long> RNR_RETRY = ParamSpec.builder("rnr_retry",
                    new ParamType.Int(0, 7, true))
            .defaultValue(7L)
            .description("Times a message is resent to a receiver that had no receive posted; 7 means forever")
            .build();

    public static final ParamSpec<Long> RNR_TIMER_US = ParamSpec.builder("rnr_timer_us",
                    new ParamType.Int(1, 10_000_000, true))
            .defaultValue(100L).unit("us")
            .description("Wait before resending a message to a receiver that had no receive posted")
            .build();

    public static final ParamSpec<Long> CONNECT_TIMEOUT_MS = ParamSpec.builder("connect_timeout_ms",
                    new ParamType.Int(1, 3_600_000, true))
            .defaultValue(30_000L).unit("ms")
            .description("A connection request unanswered this long fails")
            .build();

    public static final ParamSpec<Long> LISTEN_BACKLOG = ParamSpec.builder("listen_backlog",
                    new ParamType.Int(1, 65_536, true))
            .defaultValue(128L).unit("requests")
            .description("Connection requests a listener holds until they are accepted; more are refused")
            .build();

    public static final ParamSpec<String> IDLE_STRATEGY = ParamSpec.builder("idle_strategy",
                    new ParamType.Enum(List.of("backoff", "spin")))
            .defaultValue("backoff")
            .description("How a device's progress thread waits when idle: spin (lowest latency, a core each) or "
                    + "backoff (spin, yield, then park)")
            .build();

    public static final ParamSpec<Long> RAILS_PER_LINK = ParamSpec.builder("rails_per_link",
                    new ParamType.Int(1, 8, true))
            .defaultValue(1L).unit("rails")
            .description("Rails a device opens over each link to a peer; rails on one link share its bandwidth")
            .build();

    private static final List<ParamSpec<?>> ALL = List.of(STRIPE_MIN_BYTES, ACK_EVERY_FRAMES, ACK_DELAY_US,
            INFLIGHT_BYTES, RETRANSMIT_TIMEOUT_US, RAIL_TIMEOUT_MS, PEER_TIMEOUT_MS, RAIL_WINDOW_FRAMES,
            CONTROL_RESERVE_FRAMES, FRAME_BYTES, FRAME_CRC, QP_MAX_SEND_WR, QP_MAX_RECV_WR, QP_PSN_WINDOW,
            RNR_RETRY, RNR_TIMER_US, CONNECT_TIMEOUT_MS, LISTEN_BACKLOG, IDLE_STRATEGY, RAILS_PER_LINK);

    @Override
    public String module() {
        return "rails";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return ALL;
    }
}
