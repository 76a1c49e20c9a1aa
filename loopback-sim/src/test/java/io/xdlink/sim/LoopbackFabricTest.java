package io.xdlink.sim;

import io.xdlink.params.Origin;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.FabricProvider;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.sim.wire.Frames;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** loopback=N as the plugin and the benchmark get it: through the provider, from parameters. */
class LoopbackFabricTest {

    private static Params params(Map<String, String> values) {
        return Params.defaults().with(values, Origin.explicit("test"));
    }

    private static Fabric open(Map<String, String> values) throws IOException {
        for (FabricProvider p : ServiceLoader.load(FabricProvider.class)) {
            if (p.name().equals("loopback")) {
                return p.open(params(values)).orElseThrow();
            }
        }
        throw new AssertionError("no FabricProvider named loopback on the class path");
    }

    @Test
    void loopbackZeroOffersNothing() throws IOException {
        assertThat(new LoopbackFabricProvider().open(params(Map.of()))).isEmpty();
    }

    @Test
    void eachDeviceIsAPeerOverItsOwnCableAtTheNegotiatedSpeed() throws Exception {
        try (Fabric f = open(Map.of("loopback", "2"))) {
            List<PeerInfo> peers = f.peers();
            assertThat(peers).hasSize(2);
            assertThat(peers).extracting(PeerInfo::rateMbps).containsOnly(40_000L);
            assertThat(peers).extracting(p -> p.links().getFirst().id()).containsExactly("loopback0", "loopback1");
            assertThat(peers.getFirst().links().getFirst().state().describe()).isEqualTo("Gen 3 x2, 40 Gb/s");
        }
    }

    @Test
    void theDeclaredLargestNumberOfDevicesOpensEveryOneAndOneMoreIsRefusedByItsRange() throws Exception {
        try (Fabric f = open(Map.of("loopback", Long.toString(SimParams.MAX_LOOPBACK), "loopback_clock", "unpaced"))) {
            assertThat(f.peers()).hasSize(16);
            assertThat(f.peers()).extracting(p -> p.links().getFirst().id()).contains("loopback0", "loopback15");
        }
        assertThatThrownBy(() -> params(Map.of("loopback", "17")))
                .hasMessageContaining("'17' is out of range; allowed: 0..16");
    }

    @Test
    void discoverySurvivesTheLongestDeclaredLatencyAndOneMoreIsRefusedByItsRange() throws Exception {
        try (Fabric f = open(Map.of("loopback", "1", "loopback_latency_ns",
                Long.toString(SimParams.MAX_LATENCY_NS)))) {
            assertThat(f.peers()).hasSize(1);
            assertThat(f.peers().getFirst().rateMbps()).isEqualTo(40_000L);
        }
        assertThatThrownBy(() -> params(Map.of("loopback_latency_ns", Long.toString(SimParams.MAX_LATENCY_NS + 1))))
                .hasMessageContaining("is out of range; allowed: 0..490000000");
    }

    @Test
    void theLinkParametersChangeWhatIsNegotiated() throws Exception {
        try (Fabric f = open(Map.of("loopback", "1", "loopback_bonding", "refused"))) {
            assertThat(f.peers().getFirst().rateMbps()).isEqualTo(20_000);
        }
        try (Fabric f = open(Map.of("loopback", "1", "loopback_gen", "gen4"))) {
            assertThat(f.peers().getFirst().rateMbps()).isEqualTo(80_000);
        }
        try (Fabric f = open(Map.of("loopback", "1", "loopback_gen", "gen2", "loopback_lanes", "1"))) {
            assertThat(f.peers().getFirst().rateMbps()).isEqualTo(10_000);
        }
    }

    @Test
    void theFarEndMeetsTheNearEndOverTheSameCableAndIndex() throws Exception {
        try (LoopbackFabric f = (LoopbackFabric) open(Map.of("loopback", "1", "loopback_clock", "unpaced"))) {
            PeerInfo peer = f.peers().getFirst();
            Fabric far = f.far(peer.domain()).orElseThrow();
            assertThat(f.far(f.localDomain())).isEqualTo(Optional.empty());
            assertThat(far.peers()).extracting(PeerInfo::domain).containsExactly(f.localDomain());
            String link = peer.links().getFirst().id();
            RailTransport near = f.openRail(peer.domain(), link, 0);
            RailTransport there = far.openRail(f.localDomain(), link, 0);
            for (int i = 0; i < 100; i++) {
                while (!near.offer(Frames.frame(i, 4096))) {
                    Thread.onSpinWait();
                }
            }
            List<Long> got = new ArrayList<>();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (got.size() < 100 && System.nanoTime() < deadline) {
                there.poll(fr -> got.add(Frames.seq(fr)), 64);
            }
            assertThat(got).hasSize(100).isSorted();
        }
    }

    @Test
    void aStockUbuntuHostShowsTheRingFallbackWarning() throws Exception {
        try (LoopbackFabric f = (LoopbackFabric) open(Map.of("loopback", "1", "loopback_iommu", "passthrough"))) {
            PeerInfo peer = f.peers().getFirst();
            f.openRail(peer.domain(), peer.links().getFirst().id(), 0).close();
            assertThat(f.world().warnings()).anySatisfy(w -> assertThat(w).contains("Using 1024 frames"));
        }
    }

    @Test
    void closingEndsTheSimulatorsThread() throws Exception {
        Fabric f = open(Map.of("loopback", "1"));
        f.close();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("xdlink-loopback"))
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("xdlink-loopback"));
    }
}
