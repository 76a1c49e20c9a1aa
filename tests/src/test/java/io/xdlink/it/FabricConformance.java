package io.xdlink.it;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailClosedException;
import io.xdlink.rails.RailTransport;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every {@link Fabric} must do, from its javadoc, written once and run unchanged against each one (the
 * loopback fabric, the simulator's host views, a real host's sysfs-plus-TCP fabric on 127.0.0.1): a fabric joins by
 * subclassing this and saying how to make two hosts' views of one fabric joined by one link, what that link was
 * configured to negotiate, and which promises it cannot keep.
 * Each side sees the other as a peer under the identity the other reports for itself, with the link it was
 * configured with; a rail opened from both sides over that link carries frames both ways, and its info names the
 * link; closing a fabric closes the rails opened through it and the peer's end reports it; close is idempotent; and
 * {@link Fabric#peerLost} names a peer whose fabric closed, where the fabric can tell.
 *
 * <p>Frames are random bytes; the seed is in every failure message and {@code -Dxdlink.test.seed=N} replays it.
 */
public abstract class FabricConformance extends SeededConformance {

    /**
     * Two hosts' views of one fabric, joined by one link.
     *
     * @param a        one host's view
     * @param b        the other's
     * @param linkId   the id both sides know the link by
     * @param expected what the link was configured to negotiate (the sysfs tree, the simulated cable)
     */
    public record Pair(Fabric a, Fabric b, String linkId, LinkState expected) {
    }

    /**
     * Makes a fresh pair whose peers already know each other. Register everything it creates with
     * {@link #closeLater} (both fabrics included) so the base checks that closing really closes.
     */
    protected abstract Pair open() throws Exception;

    /**
     * Whether {@link Fabric#peerLost} names a peer once that peer's fabric closed. The interface allows a fabric
     * that cannot tell to answer empty always; a subclass that does so says false here.
     */
    protected boolean reportsPeerLost() {
        return true;
    }

    /** The two ends of one rail. */
    private record Rail(RailTransport a, RailTransport b) {
    }

    /**
     * Opens rail {@code index} over the pair's link on both sides at once, as two hosts' engines would: the contract
     * lets {@code openRail} wait for the peer's side during set-up.
     */
    private Rail openRail(Pair p, int index) throws Exception {
        UUID aId = p.a().localDomain();
        CompletableFuture<RailTransport> atB = CompletableFuture.supplyAsync(() -> {
            try {
                return p.b().openRail(aId, p.linkId(), index);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        RailTransport a;
        try {
            a = closeLater(p.a().openRail(p.b().localDomain(), p.linkId(), index));
        } catch (Exception e) {
            atB.handle((r, t) -> {
                if (r != null) {
                    r.close();
                }
                return null;
            });
            throw e;
        }
        RailTransport b = closeLater(atB.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        return new Rail(a, b);
    }

    private byte[] frame() {
        byte[] f = new byte[1 + random.nextInt(4096)];
        random.nextBytes(f);
        return f;
    }

    /** Sends one frame from {@code from} and waits until {@code to} hands over exactly it. */
    private void carries(String direction, RailTransport from, RailTransport to) {
        byte[] sent = frame();
        MemorySegment s = MemorySegment.ofArray(sent);
        await("room to offer a frame " + direction, () -> {
            if (from.offer(s)) {
                return true;
            }
            from.flush();
            return false;
        });
        List<byte[]> got = new ArrayList<>();
        await("a frame to arrive " + direction, () -> {
            from.flush();
            to.poll(f -> got.add(f.toArray(ValueLayout.JAVA_BYTE)), 16);
            return !got.isEmpty();
        });
        assertThat(got).as("frames that arrived %s [%s]", direction, seedNote()).hasSize(1);
        assertThat(got.getFirst()).as("the frame's bytes %s [%s]", direction, seedNote()).isEqualTo(sent);
    }

    /** Whether a rail reports that it or its peer closed: not open, or a poll that throws. */
    private static boolean reportsClosed(RailTransport rail) {
        try {
            rail.poll(f -> { }, 16);
        } catch (RailClosedException closed) {
            return true;
        }
        return !rail.isOpen();
    }

    private static Optional<PeerInfo> peer(Fabric at, UUID domain) {
        return at.peers().stream().filter(p -> p.domain().equals(domain)).findFirst();
    }

    @Test
    void eachSideSeesTheOtherUnderTheIdentityItReportsForItself() throws Exception {
        Pair p = open();
        UUID a = p.a().localDomain();
        UUID b = p.b().localDomain();
        assertThat(a).as("two hosts' domains").isNotEqualTo(b);
        assertThat(p.a().peers()).as("a's peers").extracting(PeerInfo::domain).contains(b);
        assertThat(p.b().peers()).as("b's peers").extracting(PeerInfo::domain).contains(a);
        assertThat(p.a().peers()).as("a is not its own peer").extracting(PeerInfo::domain).doesNotContain(a);
    }

    @Test
    void theLinkToThePeerIsTheOneTheFabricWasConfiguredWith() throws Exception {
        Pair p = open();
        PeerInfo atA = peer(p.a(), p.b().localDomain()).orElseThrow(() -> new AssertionError("a does not see b"));
        PeerInfo atB = peer(p.b(), p.a().localDomain()).orElseThrow(() -> new AssertionError("b does not see a"));
        for (PeerInfo seen : List.of(atA, atB)) {
            assertThat(seen.links()).as("links to %s", seen.domain()).extracting(LinkInfo::id).contains(p.linkId());
            LinkInfo link = seen.links().stream().filter(l -> l.id().equals(p.linkId())).findFirst().orElseThrow();
            assertThat(link.state()).as("what link %s negotiated, seen towards %s", link.id(), seen.domain())
                    .isEqualTo(p.expected());
            assertThat(seen.rateMbps()).as("the peer's rate: its links' rates together")
                    .isEqualTo(seen.links().stream().mapToLong(l -> l.state().rateMbps()).sum());
        }
    }

    @Test
    void aRailOpenedFromBothSidesCarriesFramesBothWaysAndNamesItsLink() throws Exception {
        Pair p = open();
        Rail r = openRail(p, 0);
        assertThat(r.a().isOpen()).as("a fresh rail at a").isTrue();
        assertThat(r.b().isOpen()).as("a fresh rail at b").isTrue();
        assertThat(r.a().info().linkId()).as("the link a's rail runs over").isEqualTo(p.linkId());
        assertThat(r.b().info().linkId()).as("the link b's rail runs over").isEqualTo(p.linkId());
        assertThat(r.a().info().link()).as("a's rail's link state").isEqualTo(p.expected());
        carries("a to b", r.a(), r.b());
        carries("b to a", r.b(), r.a());
        carries("a to b again", r.a(), r.b());
    }

    @Test
    void railsWithDifferentIndicesOverOneLinkAreSeparate() throws Exception {
        Pair p = open();
        Rail zero = openRail(p, 0);
        Rail one = openRail(p, 1);
        carries("a to b on rail 1", one.a(), one.b());
        carries("a to b on rail 0", zero.a(), zero.b());
        assertThat(one.b().poll(f -> { }, 16)).as("frames that crossed from rail 0 to rail 1").isZero();
    }

    @Test
    void closingAFabricClosesItsRailsAndThePeerEndReportsIt() throws Exception {
        Pair p = open();
        Rail r = openRail(p, 0);
        carries("a to b", r.a(), r.b());
        p.a().close();
        assertThat(r.a().isOpen()).as("a rail of a closed fabric").isFalse();
        await("b's end of the rail to report that a's fabric closed", () -> reportsClosed(r.b()));
    }

    @Test
    void closeIsIdempotent() throws Exception {
        Pair p = open();
        Rail r = openRail(p, 0);
        p.b().close();
        assertThatCode(p.b()::close).as("a second close").doesNotThrowAnyException();
        assertThat(r.b().isOpen()).as("a rail of a closed fabric").isFalse();
        await("a's end of the rail to report that b's fabric closed", () -> reportsClosed(r.a()));
        p.a().close();
        p.a().close();
        assertThat(r.a().isOpen()).isFalse();
    }

    @Test
    void aLivePeerIsNotLostAndOneWhoseFabricClosedIs() throws Exception {
        assumeTrue(reportsPeerLost(), "this fabric does not promise to tell when a peer is lost");
        Pair p = open();
        UUID b = p.b().localDomain();
        Rail r = openRail(p, 0);
        carries("a to b", r.a(), r.b());
        assertThat(p.a().peerLost(b)).as("a live peer, reached").isEmpty();
        p.b().close();
        await("a to report b lost once b's fabric closed", () -> p.a().peerLost(b).isPresent());
        assertThat(p.a().peerLost(b).orElseThrow()).as("why b is lost").isNotBlank();
    }

    @Test
    void aPeerNobodyKnowsIsNotLost() throws Exception {
        Pair p = open();
        assertThat(p.a().peerLost(new UUID(random.nextLong(), random.nextLong())))
                .as("a peer this fabric never reached").isEmpty();
    }
}
