package io.xdlink.cli.bench;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;

import java.io.PrintWriter;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/** What the client and the server share: opening the device, the banner, and the results' life after the table. */
abstract class BenchSide {
    protected final Fabric fabric;
    protected final RailsSettings rails;
    protected final PrintWriter out;

    BenchSide(Fabric fabric, RailsSettings rails, PrintWriter out) {
        this.fabric = fabric;
        this.rails = rails;
        this.out = out;
    }

    /**
     * What a waiting side asks about the other: why the fabric counts the {@code role}'s host as lost (its session's
     * heartbeat stopped), or null while it does not.
     */
    protected Supplier<String> lostPeer(String role, Supplier<UUID> host) {
        return () -> {
            UUID h = host.get();
            return h == null ? null : fabric.peerLost(h).map(why -> "lost the " + role + ": " + why).orElse(null);
        };
    }

    /**
     * A device over every (chosen) rail of the fabric, identified by the host's domain, whose engine the bench's own
     * threads run ({@link BenchDevice#inline}).
     */
    protected BenchDevice openDevice(boolean loopback) {
        DeviceConfig config = DeviceConfig.builder().id(fabric.localDomain()).settings(rails).invoker().build();
        return BenchDevice.inline(Device.open(fabric, config), loopback);
    }

    /** The completion-queue size that can never overflow for this run. */
    protected static int cqCapacity(BenchSettings s) {
        return s.qps() * (s.txDepth() + Responder.RX_DEPTH) + 64;
    }

    protected void banner(BenchSettings s, BenchEndpoint ep, UUID peer) {
        List<String> unmatched = RailFilter.unmatched(fabric);
        if (!unmatched.isEmpty()) {
            throw new BenchException("--rail " + String.join(", ", unmatched) + " matches no link to the peer; links: "
                    + describeLinks(peer));
        }
        PeerInfo info = fabric.peers().stream().filter(p -> p.domain().equals(peer)).findFirst().orElse(null);
        new BenchOutput(out, s).banner("xdlink " + shortId(fabric.localDomain()) + " -> " + shortId(peer),
                linkType(s), info, ep.device().stats().rails(), CFormat.sizeText(rails.stripeMinBytes()));
    }

    private String describeLinks(UUID peer) {
        return fabric.peers().stream().filter(p -> p.domain().equals(peer)).flatMap(p -> p.links().stream())
                .map(l -> l.localPort() + " (" + l.id() + ")").reduce((a, b) -> a + ", " + b).orElse("none");
    }

    private static String linkType(BenchSettings s) {
        return s.loopback() ? "USB4 (simulated, real-time pacing)" : "USB4 host-to-host (thunderbolt-net)";
    }

    static String shortId(UUID id) {
        return id.toString().substring(0, 8);
    }
}
