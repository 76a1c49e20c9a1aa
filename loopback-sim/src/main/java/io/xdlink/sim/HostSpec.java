package io.xdlink.sim;

import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.IommuMode;

import java.util.Objects;
import java.util.UUID;
import java.nio.charset.StandardCharsets;

/**
 * A simulated host: its identity, its USB4 ports, what it publishes, its DMA memory and the rings it asks for.
 *
 * @param name           its hostname (published as the {@code deviceid} text, so peers learn it)
 * @param domain         its domain UUID
 * @param ports          USB4 ports
 * @param thunderboltNet whether it also publishes thunderbolt-net's {@code network} service beside {@code xdlink}
 * @param dma            its DMA memory when it boots: CMA total and free, IOMMU mode
 * @param ringFrames     the ring size it asks for ({@code ring_size}); the planner may fall back
 * @param minRingFrames  the smallest ring it accepts ({@code ring_size_min})
 * @param maxHopId       the highest HopID its ports offer (Linux's default 15 leaves eight rails per port)
 */
public record HostSpec(String name, UUID domain, int ports, boolean thunderboltNet, DmaFacts dma, long ringFrames,
                       long minRingFrames, int maxHopId) {

    /** A stock host's DMA: a translating IOMMU, so any ring fits, and no CMA area. */
    /** The most USB4 ports a simulated host has (ports 0..15). */
    public static final int MAX_PORTS = 16;

    public static final DmaFacts TRANSLATED = DmaFacts.of(0, 0, IommuMode.TRANSLATED);

    public HostSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(dma, "dma");
        if (name.isBlank() || name.length() > 64) {
            throw new IllegalArgumentException("a host name must be 1..64 characters: '" + name + "'");
        }
        if (ports < 1 || ports > MAX_PORTS) {
            throw new IllegalArgumentException(name + ": a host has 1.." + MAX_PORTS + " USB4 ports, not " + ports);
        }
        if (ringFrames < 1 || minRingFrames < 1) {
            throw new IllegalArgumentException(name + ": ring sizes must be positive: " + ringFrames + ", "
                    + minRingFrames);
        }
        if (maxHopId < HopIds.FIRST || maxHopId > 2047) {
            throw new IllegalArgumentException(name + ": maxhopid must be 8..2047, not " + maxHopId);
        }
    }

    /**
     * A host named {@code name} with a domain UUID derived from the name (so a scenario names the same hosts every
     * run), two ports, the {@code xdlink} service only, a translating IOMMU and 4096-frame rings.
     */
    public static HostSpec named(String name) {
        return new HostSpec(name, UUID.nameUUIDFromBytes(("xdlink-sim-host:" + name)
                .getBytes(StandardCharsets.UTF_8)), 2, false, TRANSLATED, 4096, 256,
                HopIds.DEFAULT_MAX);
    }

    public HostSpec withDomain(UUID d) {
        return new HostSpec(name, d, ports, thunderboltNet, dma, ringFrames, minRingFrames, maxHopId);
    }

    public HostSpec withPorts(int n) {
        return new HostSpec(name, domain, n, thunderboltNet, dma, ringFrames, minRingFrames, maxHopId);
    }

    public HostSpec withThunderboltNet(boolean on) {
        return new HostSpec(name, domain, ports, on, dma, ringFrames, minRingFrames, maxHopId);
    }

    public HostSpec withDma(DmaFacts facts) {
        return new HostSpec(name, domain, ports, thunderboltNet, facts, ringFrames, minRingFrames, maxHopId);
    }

    public HostSpec withRings(long frames, long minFrames) {
        return new HostSpec(name, domain, ports, thunderboltNet, dma, frames, minFrames, maxHopId);
    }

    public HostSpec withMaxHopId(int max) {
        return new HostSpec(name, domain, ports, thunderboltNet, dma, ringFrames, minRingFrames, max);
    }
}
