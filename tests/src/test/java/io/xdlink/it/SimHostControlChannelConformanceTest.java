package io.xdlink.it;

import io.xdlink.sim.CableSpec;
import io.xdlink.sim.HostSpec;
import io.xdlink.sim.SimClock;
import io.xdlink.sim.SimFabric;
import io.xdlink.sim.SimHost;
import io.xdlink.sim.fault.FaultPlan;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.UuidWords;
import io.xdlink.xdomain.packet.XdomainPacket;

import java.util.Random;
import java.util.UUID;

/**
 * The control-channel conformance suite over what a simulated host's fabric hands out as a control channel to a
 * peer: a view of the cable's shared ring 0, behind the host's ring-0 consumer. That consumer drops packets that fail
 * the CRC or XDomain's length rule, so the packets here are valid XDomain packets of a service protocol no handler
 * claims, with random contents. Closing one view leaves ring 0 up, so the peer's view does not see it go: that case
 * is left out here.
 */
class SimHostControlChannelConformanceTest extends VirtualClockControlChannels {
    /** A service protocol no host handler consumes, so its packets reach the opened views. */
    private static final UUID PROTOCOL = UUID.fromString("6c1d0c36-5c34-4d1a-9f0e-7a3e2b1c0d4f");
    /** Virtual time discovery may take before the peers know each other. */
    private static final long DISCOVERY_NANOS = 60_000_000_000L;

    @Override
    protected Ends open() throws Exception {
        SimFabric fabric = closeLater(new SimFabric(SimClock.virtual(clock), FaultPlan.NONE));
        SimHost a = fabric.addHost(HostSpec.named("a").withPorts(2).withRings(64, 16));
        SimHost b = fabric.addHost(HostSpec.named("b").withPorts(2).withRings(64, 16));
        fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        long end = clock.nanoTime() + DISCOVERY_NANOS;
        while (!fabric.settled() && clock.nextDeadline() <= end) {
            clock.advanceToNext();
        }
        return new Ends(closeLater(a.fabric().openControl(b.domain())),
                closeLater(b.fabric().openControl(a.domain())));
    }

    @Override
    protected boolean lossy() {
        return false;
    }

    @Override
    protected boolean seesPeerClose() {
        return false;
    }

    /** A valid XDomain packet of {@link #PROTOCOL}, at least the smallest XDomain packet, with its CRC word. */
    @Override
    protected byte[] packet(Random random, int wireBytes) {
        int words = Math.max(XdomainPacket.MIN_LENGTH + 3, wireBytes / 4 - 1);
        int[] w = new int[Math.min(words, ControlFrame.MAX_PACKET_WORDS)];
        for (int i = 0; i < w.length; i++) {
            w[i] = random.nextInt();
        }
        w[2] = (w[2] & ~0x3F) | (w.length - 3);
        UuidWords.put(w, 3, PROTOCOL);
        return ControlFrame.encode(w);
    }
}
