package io.xdlink.xdomain;

/**
 * The lane adapters of one USB4 port that faces a peer, as the XDomain discovery state machine drives them: what
 * they support, what they target, what the link runs now, and the few writes lane bonding needs. The simulator
 * implements it per cable end, tests implement it with a shared cable in virtual time, and
 * {@link #fixed(LinkState)} stands for a link whose lanes xdlink cannot touch (a real host, where the kernel
 * negotiated already).
 *
 * <p>How bonding uses it (Linux's flow, spec xdomain.md section 3): both hosts read each other's
 * {@link #supportedWidth()} and {@link #targetWidth()} with LINK_STATE_STATUS. The host with the higher UUID waits;
 * when the lower host's LINK_STATE_CHANGE arrives it calls {@link #setTargetWidth} with the requested width. The
 * lower host calls {@link #enableSecondLane()} and {@code setTargetWidth(TARGET_WIDTH_DUAL)}. Each then waits up
 * to 10 s for {@link #currentWidth()} to reach 2, hearing about changes through {@link #addListener}. The link
 * bonds only when both ends target dual with lane 1 enabled and the hardware agrees: a host whose controller
 * refuses inter-domain bonding (seen on AMD) may advertise dual and simply never bond, and both sides then fall back
 * to one lane. When discovery ends and bonding was possible but did not happen, the state machine calls
 * {@link #disableSecondLane()}. Gen 4 links come up bonded and are never negotiated.
 *
 * <p>Threading: the state machine calls these methods on its {@link Scheduler}'s thread; an implementation calls
 * listeners from a task on that same scheduler (for the simulator: when the cable's retraining delay elapses), so
 * neither side needs locks. Writes return at once; the link changes later.
 */
public interface LaneAdapter {
    /** {@link #supportedWidth()} bit: one lane. */
    int SUPPORTED_WIDTH_SINGLE = 0x1;
    /** {@link #supportedWidth()} bit: two lanes (LANE_ADP_CS_0_SUPPORTED_WIDTH_DUAL). */
    int SUPPORTED_WIDTH_DUAL = 0x2;
    /** {@link #targetWidth()} value: one lane (LANE_ADP_CS_1_TARGET_WIDTH_SINGLE). */
    int TARGET_WIDTH_SINGLE = 0x1;
    /** {@link #targetWidth()} value: two lanes (LANE_ADP_CS_1_TARGET_WIDTH_DUAL). */
    int TARGET_WIDTH_DUAL = 0x3;

    /**
     * slw, LANE_ADP_CS_0 bits 25:20: a bit mask of the widths lane 0 supports ({@link #SUPPORTED_WIDTH_SINGLE},
     * {@link #SUPPORTED_WIDTH_DUAL}; a dual-capable adapter reports 0x3). A peer that reports less than 0x2 is
     * single-lane only and is not asked to bond.
     */
    int supportedWidth();

    /**
     * sls, LANE_ADP_CS_0 bits 19:16, raw. Carried in LINK_STATE_STATUS responses; xdlink never interprets it.
     * Implementations that do not model it return 0.
     */
    default int supportedSpeeds() {
        return 0;
    }

    /**
     * tls, LANE_ADP_CS_1 bits 3:0, raw (Linux names Gen 3 as 0xc). Sent in LINK_STATE_CHANGE requests and
     * LINK_STATE_STATUS responses; xdlink never interprets it. Implementations that do not model it return 0.
     */
    default int targetSpeed() {
        return 0;
    }

    /** tlw, LANE_ADP_CS_1 bits 9:4: {@link #TARGET_WIDTH_SINGLE} or {@link #TARGET_WIDTH_DUAL}. */
    int targetWidth();

    /** Writes the target width of both lane adapters of the port; the link retrains later (if it can). */
    void setTargetWidth(int tlw);

    /**
     * Whether the port has a second lane adapter (Linux's {@code dual_link_port}); without one this host never tries
     * to bond. By default: lane 0 supports dual.
     */
    default boolean dualLink() {
        return (supportedWidth() & SUPPORTED_WIDTH_DUAL) != 0;
    }

    /** Enables lane 1 (the bonding host does this before it targets dual). */
    void enableSecondLane();

    /** Disables lane 1 (when discovery ends on one lane although bonding was possible). */
    void disableSecondLane();

    /** The speed the link runs at now (LANE_ADP_CS_1 current speed). */
    Generation speed();

    /** Lanes the link runs now in each direction: 1, or 2 when bonded (LANE_ADP_CS_1 current width). */
    int currentWidth();

    /** What the link runs now, as a {@link LinkState}. */
    default LinkState linkState() {
        return LinkState.of(speed(), currentWidth());
    }

    /** Calls {@code listener} (on the scheduler) after the current width or speed changed. */
    void addListener(Runnable listener);

    void removeListener(Runnable listener);

    /**
     * A link that runs as {@code state} and that xdlink does not negotiate: it reports the state's width as
     * supported and targeted, says it has no second lane adapter (so no bonding is attempted from this side), and
     * ignores writes. For real hosts, where the kernel already negotiated and sysfs told us the result.
     */
    static LaneAdapter fixed(LinkState state) {
        Generation generation = state.generation().orElseThrow(() -> new IllegalArgumentException(
                "a fixed lane adapter needs one USB4 generation for both directions: " + state.describe()));
        int lanes = Math.min(state.txLanes(), state.rxLanes());
        return new LaneAdapter() {
            @Override
            public int supportedWidth() {
                return lanes >= 2 ? SUPPORTED_WIDTH_SINGLE | SUPPORTED_WIDTH_DUAL : SUPPORTED_WIDTH_SINGLE;
            }

            @Override
            public int targetWidth() {
                return lanes >= 2 ? TARGET_WIDTH_DUAL : TARGET_WIDTH_SINGLE;
            }

            @Override
            public void setTargetWidth(int tlw) {
                // the kernel owns these lanes
            }

            @Override
            public boolean dualLink() {
                return false;
            }

            @Override
            public void enableSecondLane() {
                // the kernel owns these lanes
            }

            @Override
            public void disableSecondLane() {
                // the kernel owns these lanes
            }

            @Override
            public Generation speed() {
                return generation;
            }

            @Override
            public int currentWidth() {
                return lanes;
            }

            @Override
            public LinkState linkState() {
                return state;
            }

            @Override
            public void addListener(Runnable listener) {
                // a fixed link never changes
            }

            @Override
            public void removeListener(Runnable listener) {
                // a fixed link never changes
            }
        };
    }
}
