package io.xdlink.sim;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;

import java.util.List;

/**
 * The simulator's parameters: {@code loopback=N} and what the loopback links look like. A user who wants to see the
 * field's troubles without the hardware can ask for them here: a refused bond, a slow direction, rings without
 * end-to-end flow control.
 */
public final class SimParams implements ParamProvider {

    /**
     * The most loopback devices: each is a cable on its own port of the one local host, and a host has at most
     * {@link HostSpec#MAX_PORTS} USB4 ports.
     */
    public static final long MAX_LOOPBACK = HostSpec.MAX_PORTS;

    /**
     * The longest one-way cable latency XDomain discovery survives: each of its requests is answered within
     * XDOMAIN_DEFAULT_TIMEOUT (1 s) or sent again, so a round trip of two latencies must fit in that second, with
     * room for the packets' time on the wire. At 500 ms every request times out and no peer ever appears.
     */
    public static final long MAX_LATENCY_NS = 490_000_000L;

    public static final ParamSpec<Long> LOOPBACK = ParamSpec.builder("loopback",
                    new ParamType.Int(0, MAX_LOOPBACK, true))
            .defaultValue(0L).unit("devices")
            .description("Loopback devices: simulated peers inside this process, each over its own simulated cable (0: off)")
            .build();

    public static final ParamSpec<String> GENERATION = ParamSpec.builder("loopback_gen",
                    new ParamType.Enum(List.of("gen2", "gen3", "gen4")))
            .defaultValue("gen3")
            .description("USB4 generation of each loopback cable: gen2 10, gen3 20, gen4 40 Gb/s per lane")
            .build();

    public static final ParamSpec<Long> LANES = ParamSpec.builder("loopback_lanes", new ParamType.Int(1, 2, true))
            .defaultValue(2L).unit("lanes")
            .description("Lanes each loopback cable and controller support; 2 lets the hosts bond them")
            .build();

    public static final ParamSpec<String> BONDING = ParamSpec.builder("loopback_bonding",
                    new ParamType.Enum(List.of("bonds", "refused")))
            .defaultValue("bonds")
            .description("refused: the simulated peer's controller never completes bonding, as AMD controllers do, so the link falls back to one lane")
            .build();

    public static final ParamSpec<String> CLOCK = ParamSpec.builder("loopback_clock",
                    new ParamType.Enum(List.of("real", "unpaced")))
            .defaultValue("real")
            .description("real: frames cross at the negotiated rate in wall-clock time; unpaced: as fast as memory allows")
            .build();

    public static final ParamSpec<Long> LATENCY = ParamSpec.builder("loopback_latency_ns",
                    new ParamType.Int(0, MAX_LATENCY_NS, true))
            .defaultValue(1_000L).unit("ns")
            .description("One-way latency of a loopback cable; at most 490 ms, since XDomain discovery's requests"
                    + " must be answered within 1 s")
            .build();

    public static final ParamSpec<Long> TX_CAP = ParamSpec.builder("loopback_tx_cap",
                    new ParamType.Int(0, 1_000_000, true))
            .defaultValue(0L).unit("Mb/s")
            .description("Caps what the local host sends per cable below the negotiated rate (0: no cap); the field saw 22700 one way")
            .build();

    public static final ParamSpec<Long> RX_CAP = ParamSpec.builder("loopback_rx_cap",
                    new ParamType.Int(0, 1_000_000, true))
            .defaultValue(0L).unit("Mb/s")
            .description("Caps what the simulated peer sends per cable below the negotiated rate (0: no cap); the field saw 11700 the other way")
            .build();

    public static final ParamSpec<Boolean> E2E = ParamSpec.builder("loopback_e2e", new ParamType.Bool())
            .defaultValue(Boolean.TRUE)
            .description("End-to-end flow control on loopback rings; 0 lets a full receive ring drop frames, as on AMD hosts")
            .build();

    public static final ParamSpec<Long> CMA = ParamSpec.builder("loopback_cma", new ParamType.Size(0, 1L << 40))
            .defaultValue(0L).unit("bytes")
            .description("CMA area of the loopback hosts (their CmaTotal); matters only when loopback_iommu is not translated")
            .build();

    public static final ParamSpec<String> IOMMU = ParamSpec.builder("loopback_iommu",
                    new ParamType.Enum(List.of("translated", "passthrough", "off")))
            .defaultValue("translated")
            .description("IOMMU mode of the loopback hosts; passthrough with loopback_cma=0 shows a stock Ubuntu's ring fallback")
            .build();

    @Override
    public String module() {
        return "loopback-sim";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return List.of(LOOPBACK, GENERATION, LANES, BONDING, CLOCK, LATENCY, TX_CAP, RX_CAP, E2E, CMA, IOMMU);
    }
}
