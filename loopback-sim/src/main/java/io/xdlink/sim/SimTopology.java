package io.xdlink.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.Locale;

/**
 * The cabling of a small cluster: N hosts named {@code host0..host<N-1>} joined in a ring (each host's two ports to
 * its two neighbours), a chain (a line: the ends have a free port), or a dual ring (two cables between every pair
 * of neighbours, four ports a host). Every cable has its own {@link CableSpec}, so one refused bond or one Gen 2
 * cable can sit anywhere in the ring.
 *
 * <p>Cables are numbered along the line: in a ring and a chain cable {@code i} joins host {@code i} and host
 * {@code i+1} (the ring's last one closes it back to host 0); in a dual ring cables {@code 2i} and {@code 2i+1}
 * join host {@code i} and host {@code i+1}. A cable's A end is the lower-numbered host of its segment, except the
 * ring's closing cable, whose A end is the last host. A ring of two hosts has one cable per segment as a chain
 * has (two ports a host would only double the one segment, which is what a dual ring is for).
 */
public final class SimTopology {
    /** How the hosts are cabled. */
    public enum Shape {
        RING, CHAIN, DUAL_RING;

        /** The lower-case, dash-separated name the command line uses. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** The most hosts a simulated cluster may have. */
    public static final int MAX_HOSTS = 64;

    /** One cable of the plan: its index, name, ends and spec. */
    public record Cable(int index, String name, int hostA, int hostB, CableSpec spec) {
    }

    private final Shape shape;
    private final int hosts;
    private final CableSpec cable;
    private final Map<Integer, CableSpec> overrides = new TreeMap<>();
    private IntFunction<HostSpec> hostSpec = i -> HostSpec.named("host" + i);

    private SimTopology(Shape shape, int hosts, CableSpec cable) {
        this.shape = Objects.requireNonNull(shape, "shape");
        this.cable = Objects.requireNonNull(cable, "cable");
        if (hosts < 2 || hosts > MAX_HOSTS) {
            throw new IllegalArgumentException("a cluster has 2.." + MAX_HOSTS + " hosts, not " + hosts);
        }
        this.hosts = hosts;
    }

    /** {@code hosts} hosts cabled as {@code shape}, every cable {@code cable}. */
    public static SimTopology of(Shape shape, int hosts, CableSpec cable) {
        return new SimTopology(shape, hosts, cable);
    }

    /** Cable {@code index} is {@code spec} instead of the default. */
    public SimTopology cable(int index, CableSpec spec) {
        if (index < 0 || index >= cableCount()) {
            throw new IllegalArgumentException("cable " + index + " does not exist: a " + shape.label() + " of "
                    + hosts + " hosts has cables 0.." + (cableCount() - 1));
        }
        overrides.put(index, Objects.requireNonNull(spec, "spec"));
        return this;
    }

    /** How each host is built (its name must stay unique); the ports are set by the shape. */
    public SimTopology hosts(IntFunction<HostSpec> spec) {
        this.hostSpec = Objects.requireNonNull(spec, "spec");
        return this;
    }

    public Shape shape() {
        return shape;
    }

    public int hostCount() {
        return hosts;
    }

    /** Neighbour pairs joined by cables: a ring of N closes with a segment from host N-1 back to 0. */
    public int segmentCount() {
        return shape == Shape.CHAIN || hosts == 2 ? hosts - 1 : hosts;
    }

    public int cableCount() {
        return segmentCount() * (shape == Shape.DUAL_RING ? 2 : 1);
    }

    /** Every cable of the plan, in index order. */
    public List<Cable> cables() {
        List<Cable> out = new ArrayList<>();
        int perSegment = shape == Shape.DUAL_RING ? 2 : 1;
        for (int s = 0; s < segmentCount(); s++) {
            int a = s;
            int b = (s + 1) % hosts;
            for (int k = 0; k < perSegment; k++) {
                int index = s * perSegment + k;
                out.add(new Cable(index, "cable" + index, a, b, overrides.getOrDefault(index, cable)));
            }
        }
        return out;
    }

    /** Ports each host needs: two for a ring or chain, four for a dual ring. */
    int portsPerHost() {
        return shape == Shape.DUAL_RING ? 4 : 2;
    }

    /**
     * Adds the hosts and plugs the cables into {@code fabric}; the hosts start discovering each other at once.
     *
     * @return the hosts, host {@code i} at index {@code i}
     */
    public List<SimHost> build(SimFabric fabric) {
        List<SimHost> added = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            added.add(fabric.addHost(hostSpec.apply(i).withPorts(portsPerHost())));
        }
        for (Cable c : cables()) {
            SimHost a = added.get(c.hostA());
            SimHost b = added.get(c.hostB());
            fabric.connect(c.name(), a, a.freePort(), b, b.freePort(), c.spec());
        }
        return added;
    }

    @Override
    public String toString() {
        return shape.label() + " of " + hosts + " hosts, " + cableCount() + " cables";
    }
}
