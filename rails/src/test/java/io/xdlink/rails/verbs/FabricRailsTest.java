package io.xdlink.rails.verbs;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rails keeper of a fabric device, stepped by hand on a clock of its own: rails are opened at once on the
 * stepping thread, and each test counts how often the fabric was read.
 */
class FabricRailsTest {
    private static final long LOOK = ScanCadence.FIRST_NANOS;
    private static final UUID PEER = new UUID(0xFAB, 2);
    private static final LinkState LINK = LinkState.of(Generation.GEN3, 2);

    /** A fabric with one peer whose links the test sets, counting reads and rail openings. */
    private static final class CountingFabric implements Fabric {
        final List<LinkInfo> links = new CopyOnWriteArrayList<>(List.of(new LinkInfo("0-1", "tb0", LINK)));
        final List<RailTransport> opened = new ArrayList<>();
        int reads;
        int attempts;
        boolean refuse;

        @Override
        public UUID localDomain() {
            return new UUID(0xFAB, 1);
        }

        @Override
        public List<PeerInfo> peers() {
            reads++;
            return List.of(new PeerInfo(PEER, "peer", links));
        }

        @Override
        public ControlChannel openControl(UUID peer) throws IOException {
            throw new IOException("no control channel here");
        }

        @Override
        public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
            attempts++;
            if (refuse) {
                throw new IOException("the peer's side of " + linkId + " is not there");
            }
            RailTransport t = InMemoryRailPair.create(new RailInfo(linkId + "/" + index, linkId, LINK, false), 8).a();
            opened.add(t);
            return t;
        }

        @Override
        public void close() {
        }
    }

    private final CountingFabric fabric = new CountingFabric();
    private final Device device = Device.open(DeviceConfig.builder().id(new UUID(0xFAB, 1))
            .settings(RailsSettings.defaults()).invoker().seed(1).build(), List.of());
    private final FabricRails keeper = new FabricRails(device, fabric, Runnable::run);
    private long now = 1_000_000_000L;

    @AfterEach
    void close() {
        keeper.close();
        device.close();
    }

    /** Looks as the keeper's thread does, once every {@link #LOOK}, for {@code nanos}. */
    private void lookFor(long nanos) {
        for (long end = now + nanos; now < end; now += LOOK) {
            keeper.tick(now);
        }
    }

    @Test
    void whileEveryRailStaysOpenTheFabricIsReadLessAndLessOften() {
        lookFor(10_000_000_000L);
        assertThat(fabric.attempts).isEqualTo(1);
        // Reads at 0 (opens the rail), 0.2 s, then waits of 0.4, 0.8, 1.6 and 3.2 s: 7 in 10 s where a read every
        // look made 50.
        assertThat(fabric.reads).isEqualTo(7);
        assertThat(keeper.readInterval()).isEqualTo(ScanCadence.MAX_NANOS);
    }

    @Test
    void aRailThatClosesIsOpenedAgainAtTheNextLookAndTheCadenceStartsOver() {
        lookFor(10_000_000_000L);
        int reads = fabric.reads;
        fabric.opened.getFirst().close();
        lookFor(LOOK);
        assertThat(fabric.reads).isEqualTo(reads + 1);
        assertThat(fabric.attempts).isEqualTo(2);
        assertThat(fabric.opened.getLast().isOpen()).isTrue();
        assertThat(keeper.readInterval()).isEqualTo(ScanCadence.FIRST_NANOS);
    }

    @Test
    void aRailThatCannotOpenYetIsTriedAtEveryLook() {
        fabric.refuse = true;
        lookFor(2_000_000_000L);
        assertThat(fabric.attempts).isEqualTo(10);
        assertThat(fabric.reads).isEqualTo(10);
        fabric.refuse = false;
        lookFor(LOOK);
        assertThat(fabric.opened).hasSize(1);
    }

    @Test
    void aFabricWithoutPeersIsReadAtEveryLookUntilOneAppears() {
        fabric.links.clear();
        lookFor(2_000_000_000L);
        assertThat(fabric.reads).isEqualTo(10);
        fabric.links.add(new LinkInfo("0-1", "tb0", LINK));
        lookFor(LOOK);
        assertThat(fabric.opened).hasSize(1);
        assertThat(keeper.readInterval()).isEqualTo(ScanCadence.FIRST_NANOS);
    }

    @Test
    void aLinkThatAppearsWhileEverythingIsUpIsOpenedAtTheNextRead() {
        lookFor(10_000_000_000L);
        fabric.links.add(new LinkInfo("0-3", "tb1", LINK));
        lookFor(ScanCadence.MAX_NANOS);
        assertThat(fabric.opened).hasSize(2);
        assertThat(fabric.opened).allMatch(RailTransport::isOpen);
        assertThat(fabric.opened.getLast().info().linkId()).isEqualTo("0-3");
    }
}
