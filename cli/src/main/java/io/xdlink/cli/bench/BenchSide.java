package io.xdlink.cli.bench;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.host.SharedSubnets;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.RailStats;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/** What the client and the server share: opening the device, the banner, and the results' life after the table. */
abstract class BenchSide {
    protected final Fabric fabric;
    protected final RailsSettings rails;
    protected final PrintWriter out;
    protected final PrintWriter err;
    /** The rails' congestion control, which the raw baseline's sockets take too; empty for the host's default. */
    protected final String congestion;
    /** The longest a side waits, once connected, for a rail on every cable to the peer before it runs on fewer. */
    static final Duration RAIL_WAIT = Duration.ofSeconds(5);

    BenchSide(Fabric fabric, RailsSettings rails, String congestion, PrintWriter out, PrintWriter err) {
        this.fabric = fabric;
        this.rails = rails;
        this.congestion = congestion;
        this.out = out;
        this.err = err;
    }

    /**
     * Waits, at most {@link #RAIL_WAIT} (or the run's timeout, if shorter), until the device has an open rail on every
     * cable the fabric lists to {@code peer}, then says on the error stream which cables it runs without, if any.
     * Rails open in the background, one scan after another, and a cable whose address is still being set up (an
     * IPv6 link-local address under duplicate address detection, a link that came up late) gets its rail a scan or
     * more after the first: a run that started on the first rail alone would measure, and print, one cable where the
     * user has two. The engine keeps running meanwhile ({@link BenchDevice#away}).
     */
    protected void awaitEveryCable(BenchEndpoint ep, UUID peer, Duration timeout) {
        Duration limit = timeout.compareTo(RAIL_WAIT) < 0 ? timeout : RAIL_WAIT;
        // The cables are read once: on a real host each read of the peers is a read of sysfs, and the device's own
        // rail scanner already re-reads it to open rails on links that appear later.
        List<PeerInfo> peers = fabric.peers();
        List<String> missing = ep.bench().away(() -> awaitNone(
                () -> cablesWithoutRail(peers, peer, ep.device().stats().rails()), limit));
        if (!missing.isEmpty()) {
            err.println("xdlink: warning: no rail on cable " + String.join(", ", missing) + " after "
                    + Rendezvous.seconds(limit) + "; running on the rails that are up");
            err.flush();
        }
    }

    /** Asks {@code missing} every 20 ms until it is empty or {@code limit} has passed; returns its last answer. */
    static List<String> awaitNone(Supplier<List<String>> missing, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<String> now = missing.get();
            if (now.isEmpty() || System.nanoTime() - deadline > 0) {
                return now;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return now;
            }
        }
    }

    /** {@code peer}'s cables among {@code peers} that no rail of {@code rails} in state UP runs on. */
    static List<String> cablesWithoutRail(List<PeerInfo> peers, UUID peer, List<RailStats> rails) {
        List<String> without = new ArrayList<>();
        for (PeerInfo p : peers) {
            if (!p.domain().equals(peer)) {
                continue;
            }
            for (LinkInfo l : p.links()) {
                if (rails.stream().noneMatch(r -> "UP".equals(r.state()) && l.id().equals(r.linkId()))) {
                    without.add(l.id());
                }
            }
        }
        return without;
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
        return s.qps() * (s.txDepth() + BenchResponder.RX_DEPTH) + 64;
    }

    protected void banner(BenchSettings s, BenchEndpoint ep, UUID peer) {
        List<String> unmatched = RailFilter.unmatched(fabric);
        if (!unmatched.isEmpty()) {
            throw new BenchException("--rail " + String.join(", ", unmatched) + " matches no link to the peer; links: "
                    + describeLinks(peer));
        }
        PeerInfo info = fabric.peers().stream().filter(p -> p.domain().equals(peer)).findFirst().orElse(null);
        if (info != null) {
            // The banner names a rail per cable; say so when the kernel will carry them over one.
            SharedSubnets.warnUntied(info.links()).forEach(w -> err.println("xdlink: warning: " + w));
            err.flush();
        }
        new BenchOutput(out, s).banner("xdlink " + shortId(fabric.localDomain()) + " -> " + shortId(peer),
                linkType(s), info, ep.device().stats().rails(), CFormat.sizeText(rails.stripeMinBytes()),
                rails.frameBytes());
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
