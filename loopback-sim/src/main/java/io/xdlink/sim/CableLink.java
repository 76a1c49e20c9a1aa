package io.xdlink.sim;

import io.xdlink.params.dma.RingRequest;
import io.xdlink.params.dma.DmaParams;
import io.xdlink.sim.dma.RingAllocation;
import io.xdlink.sim.wire.SimControlChannel;
import io.xdlink.sim.wire.SimRail;
import io.xdlink.sim.wire.SimRailTransport;
import io.xdlink.sim.wire.Wire;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.service.ProtocolHandlers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One cable's link while it is up (from plug-in, or a host's boot, to the pull or crash): its lanes, its ring 0, its
 * two wires and the rails over them. A link that goes down is never reused; plugging back builds a new one, so
 * nothing from before the pull can leak into what comes after.
 */
final class CableLink {
    private final SimFabric fabric;
    private final SimCable cable;
    private final int number;
    private final CableLanes lanes;
    private final Ring0 ring0A;
    private final Ring0 ring0B;
    private final Map<Integer, RailSlot> rails = new HashMap<>();
    private final List<RailSlot> all = new ArrayList<>();
    private Wire aToB;
    private Wire bToA;
    private String downReason;

    CableLink(SimFabric fabric, SimCable cable, int number) {
        this.fabric = fabric;
        this.cable = cable;
        this.number = number;
        this.lanes = new CableLanes(cable.spec(), fabric.clock().scheduler());
        SimControlChannel[] ring = SimControlChannel.pair(cable.name(), fabric.clock().scheduler(),
                cable.spec().latencyNanos(), fabric.plan().controlLossRate(),
                fabric.plan().stream(cable.name() + "#" + number + ":ring0"));
        this.ring0A = new Ring0(ring[0], cable.hostA().protocolHandlers());
        this.ring0B = new Ring0(ring[1], cable.hostB().protocolHandlers());
    }

    CableLanes lanes() {
        return lanes;
    }

    Ring0 ring0(boolean atA) {
        return atA ? ring0A : ring0B;
    }

    SimCable cable() {
        return cable;
    }

    synchronized boolean isUp() {
        return downReason == null;
    }

    /**
     * This host's end of rail {@code index}: the end the peer left for it, or a new rail whose other end waits for
     * the peer. Takes HopIDs on both ports and DMA rings on both hosts.
     */
    synchronized SimRailTransport openRail(boolean atA, int index, LinkState link) throws IOException {
        if (downReason != null) {
            throw new IOException(downReason);
        }
        if (index < 0) {
            throw new IllegalArgumentException("rail index must not be negative: " + index);
        }
        RailSlot slot = rails.get(index);
        if (slot != null && !slot.released() && slot.taken(atA)) {
            if (slot.end(atA).isOpen()) {
                throw new IOException(cable.end(atA) + ": rail " + index + " over " + cable.name()
                        + " is open already");
            }
            slot = null;
        }
        if (slot == null || slot.released()) {
            slot = newRail(index, atA ? link : mirror(link));
            rails.put(index, slot);
            all.add(slot);
        }
        slot.take(atA);
        return slot.end(atA);
    }

    private RailSlot newRail(int index, LinkState linkFromA) throws IOException {
        String name = cable.name() + "/rail" + index;
        List<AutoCloseable> taken = new ArrayList<>();
        try {
            int[] hopA = cable.end(true).hopIds().allocate();
            taken.add(() -> cable.end(true).hopIds().release(hopA));
            int[] hopB = cable.end(false).hopIds().allocate();
            taken.add(() -> cable.end(false).hopIds().release(hopB));
            RingAllocation ringsA = rings(cable.hostA(), name);
            taken.add(ringsA);
            RingAllocation ringsB = rings(cable.hostB(), name);
            taken.add(ringsB);
            wires(linkFromA);
            RailSlot[] self = new RailSlot[1];
            SimRail rail = new SimRail(name, cable.name(), linkFromA, aToB, bToA, fabric.plan(),
                    new SimRail.Rings(ringsA.frames(), ringsA.frames()),
                    new SimRail.Rings(ringsB.frames(), ringsB.frames()), fabric.waker(), () -> released(self[0]));
            self[0] = new RailSlot(rail, List.copyOf(taken));
            return self[0];
        } catch (IOException | RuntimeException e) {
            for (int i = taken.size() - 1; i >= 0; i--) {
                closeQuietly(taken.get(i));
            }
            throw e;
        }
    }

    /** A rail's TX and RX ring on one host, planned against what that host's DMA memory has now. */
    private static RingAllocation rings(SimHost host, String what) throws IOException {
        HostSpec s = host.spec();
        return host.dma().allocate(what, new RingRequest(DmaParams.RING_SIZE.name(), s.ringFrames(),
                s.minRingFrames(), 2));
    }

    /** The wires, built once per link from what it negotiated and the cable's caps. */
    private void wires(LinkState linkFromA) {
        if (aToB != null) {
            return;
        }
        CableSpec spec = cable.spec();
        aToB = new Wire(cable.name() + ":a->b", fabric.clock(), spec.paceMbps(linkFromA.txMbps(), true),
                spec.latencyNanos());
        bToA = new Wire(cable.name() + ":b->a", fabric.clock(), spec.paceMbps(linkFromA.rxMbps(), false),
                spec.latencyNanos());
    }

    private synchronized void released(RailSlot slot) {
        slot.release();
        all.remove(slot);
        rails.values().remove(slot);
    }

    /** Takes the link down: every rail fails, their resources go back, ring 0 and the lanes stop. */
    void tearDown(String reason) {
        List<RailSlot> slots;
        synchronized (this) {
            if (downReason != null) {
                return;
            }
            downReason = reason;
            slots = new ArrayList<>(all);
            all.clear();
            rails.clear();
        }
        for (RailSlot s : slots) {
            s.fail(reason);
        }
        lanes.kill();
        ring0A.close();
        ring0B.close();
    }

    /** The rates each direction is paced at now, Mb/s, or null before the first rail built the wires. */
    synchronized long[] paceMbps() {
        return aToB == null ? null : new long[] {aToB.rateMbps(), bToA.rateMbps()};
    }

    private static LinkState mirror(LinkState l) {
        return new LinkState(l.rxLaneMbps(), l.rxLanes(), l.txLaneMbps(), l.txLanes());
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // giving back HopIDs and rings cannot fail
        }
    }

    /** One rail: which ends the hosts hold, and the HopIDs and rings it took. */
    private static final class RailSlot {
        private final SimRail rail;
        private final List<AutoCloseable> resources;
        private boolean takenA;
        private boolean takenB;
        private boolean released;

        RailSlot(SimRail rail, List<AutoCloseable> resources) {
            this.rail = rail;
            this.resources = resources;
        }

        boolean taken(boolean atA) {
            return atA ? takenA : takenB;
        }

        void take(boolean atA) {
            if (atA) {
                takenA = true;
            } else {
                takenB = true;
            }
        }

        SimRailTransport end(boolean atA) {
            return atA ? rail.endA() : rail.endB();
        }

        synchronized boolean released() {
            return released;
        }

        void fail(String reason) {
            rail.fail(reason);
            release();
        }

        synchronized void release() {
            if (released) {
                return;
            }
            released = true;
            for (int i = resources.size() - 1; i >= 0; i--) {
                closeQuietly(resources.get(i));
            }
        }
    }
}
