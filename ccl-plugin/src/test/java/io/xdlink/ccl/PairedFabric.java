package io.xdlink.ccl;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.LinkState;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Two hosts joined by one cable of in-memory rails, as a test fabric: host A's view lists B as its peer and hands
 * out B's view as the far end, the way a loopback fabric does, so the plugin's loopback path runs over real rails.
 */
final class PairedFabric {
    final View a;
    final View b;
    private final LinkState link;
    private final Map<String, Slot> rails = new HashMap<>();

    PairedFabric(LinkState link) {
        this.link = link;
        a = new View(UUID.randomUUID(), "host-a");
        b = new View(UUID.randomUUID(), "host-b");
        a.other = b;
        b.other = a;
    }

    private record Slot(InMemoryRailPair pair, boolean[] taken) {
    }

    /** Rails opened so far (one pair per cable and index, or more when a side opened one again). */
    synchronized int railPairs() {
        return rails.size();
    }

    private synchronized RailTransport end(View who, String linkId, int index) {
        String key = linkId + "/" + index;
        int side = who == a ? 0 : 1;
        Slot slot = rails.get(key);
        if (slot == null || slot.taken()[side]) {
            slot = new Slot(InMemoryRailPair.create(new RailInfo("mem:" + key, linkId, link, false), 1024),
                    new boolean[2]);
            rails.put(key, slot);
        }
        slot.taken()[side] = true;
        return side == 0 ? slot.pair().a() : slot.pair().b();
    }

    final class View implements Fabric {
        private final UUID domain;
        private final String name;
        View other;
        volatile boolean closed;

        View(UUID domain, String name) {
            this.domain = domain;
            this.name = name;
        }

        @Override
        public UUID localDomain() {
            return domain;
        }

        @Override
        public List<PeerInfo> peers() {
            return List.of(new PeerInfo(other.domain, other.name, List.of(new LinkInfo("cable0", name, link))));
        }

        @Override
        public ControlChannel openControl(UUID peer) {
            throw new UnsupportedOperationException("the plugin opens no control channel");
        }

        @Override
        public RailTransport openRail(UUID peer, String linkId, int index) {
            return end(this, linkId, index);
        }

        @Override
        public Optional<Fabric> far(UUID peer) {
            return this == a && peer.equals(b.domain) ? Optional.of(b) : Optional.empty();
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
