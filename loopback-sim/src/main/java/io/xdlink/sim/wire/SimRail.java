package io.xdlink.sim.wire;

import io.xdlink.rails.RailInfo;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.sim.fault.FrameFaults;
import io.xdlink.xdomain.LinkState;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A rail between two hosts: two {@link FrameChannel}s, one per direction, over the two wires of one cable, and the
 * two {@link SimRailTransport} ends the hosts hold. When both ends are closed the rail's resources (rings, HopIDs)
 * are given back through {@code onReleased}.
 */
public final class SimRail {
    private final String name;
    private final SimRailTransport endA;
    private final SimRailTransport endB;
    private final FrameChannel aToB;
    private final FrameChannel bToA;

    /**
     * Ring sizes of one host's end: its TX ring (frames it can queue) and its RX ring (frames it can hold).
     *
     * @param txFrames TX ring entries
     * @param rxFrames RX ring entries
     */
    public record Rings(int txFrames, int rxFrames) {
        public Rings {
            if (txFrames < 1 || rxFrames < 1) {
                throw new IllegalArgumentException("ring sizes must be positive: tx " + txFrames + ", rx " + rxFrames);
            }
        }
    }

    /**
     * @param name       rail name ({@code cable1/rail0})
     * @param linkId     the cable: rails with the same id share its wires
     * @param linkFromA  what the link negotiated, as host A sees it (B sees it mirrored)
     * @param aToB       the wire from A to B
     * @param bToA       the wire from B to A
     * @param plan       the fabric's fault plan
     * @param ringsA     host A's rings for this rail
     * @param ringsB     host B's rings for this rail
     * @param waker      where virtual time must stop
     * @param onReleased run once, when both ends are closed
     */
    public SimRail(String name, String linkId, LinkState linkFromA, Wire aToB, Wire bToA, FaultPlan plan,
                   Rings ringsA, Rings ringsB, Waker waker, Runnable onReleased) {
        this.name = name;
        boolean lossy = plan.framesCanFail();
        this.aToB = FrameChannel.of(aToB, waker, FrameFaults.of(plan, name + ":a->b"), plan.e2eFlowControl(),
                ringsA.txFrames(), ringsB.rxFrames());
        this.bToA = FrameChannel.of(bToA, waker, FrameFaults.of(plan, name + ":b->a"), plan.e2eFlowControl(),
                ringsB.txFrames(), ringsA.rxFrames());
        AtomicInteger open = new AtomicInteger(2);
        Runnable closed = () -> {
            if (open.decrementAndGet() == 0) {
                onReleased.run();
            }
        };
        LinkState linkFromB = new LinkState(linkFromA.rxLaneMbps(), linkFromA.rxLanes(),
                linkFromA.txLaneMbps(), linkFromA.txLanes());
        boolean intact = plan.corruptRate() == 0;
        // Frames move memory to memory: only a fault plan that corrupts frames damages one. Lost, reordered or
        // duplicated frames arrive, when they arrive, intact.
        this.endA = new SimRailTransport(new RailInfo("sim:" + name, linkId, linkFromA, lossy, intact), this.aToB,
                this.bToA, closed);
        this.endB = new SimRailTransport(new RailInfo("sim:" + name, linkId, linkFromB, lossy, intact), this.bToA,
                this.aToB, closed);
    }

    public String name() {
        return name;
    }

    /** Host A's end. */
    public SimRailTransport endA() {
        return endA;
    }

    /** Host B's end. */
    public SimRailTransport endB() {
        return endB;
    }

    /** The cable went away or a host crashed: both directions fail, frames in flight are lost. */
    public void fail(String reason) {
        aToB.fail(reason);
        bToA.fail(reason);
    }

    /** True once both ends are closed. */
    public boolean released() {
        return !endA.isOpen() && !endB.isOpen() && aToB.senderClosed() && bToA.senderClosed();
    }
}
