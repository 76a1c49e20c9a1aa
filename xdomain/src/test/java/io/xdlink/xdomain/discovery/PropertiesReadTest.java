package io.xdlink.xdomain.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ServiceRegistry;
import io.xdlink.xdomain.service.ThunderboltNet;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A peer that lies about its property block, and what discovery makes of it. */
class PropertiesReadTest {

    private static int[] block(String hostname, boolean network) {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux(hostname), 0);
        if (network) {
            r.register(ThunderboltNet.KEY, ThunderboltNet.directory());
        }
        return PropertyBlock.format(r.block(15).root());
    }

    /** Host A (real discovery) against a scripted B; returns A's discovery after running. */
    private static Hosts against(Function<PropertiesRequest, XdpMessage> script, ScriptedPeer[] peer) {
        Hosts h = Hosts.gen3();
        peer[0] = new ScriptedPeer(Hosts.HIGH, h.channels[1], script);
        h.atA.start();
        h.runUntil(x -> x.atA.peer().enumerated() || x.atA.peer().state() == DiscoveryState.ERROR, 120_000);
        return h;
    }

    @Test
    void honestPeerIsEnumerated() {
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(ScriptedPeer.honest(Hosts.HIGH, block("beta", true), 7), p);
        assertThat(h.atA.peer().enumerated()).isTrue();
        assertThat(h.atA.peer().services()).extracting(s -> s.key()).containsExactly("network");
        assertThat(h.atA.peer().properties().orElseThrow().generation()).isEqualTo(7);
    }

    @Test
    void chunkWithTheWrongOffsetFailsTheReadUntilDiscoveryGivesUp() {
        int[] block = block("beta", true);
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(r -> new PropertiesResponse(r.header().reply(), Hosts.HIGH, r.sourceUuid(),
                r.offset() + 1, block.length, 7, Arrays.copyOf(block, 10)), p);
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("INVALID").contains("offset");
        assertThat(h.tapA.sent(PropertiesRequest.class)).hasSize(11);
    }

    @Test
    void blockOver500DwordsIsRefused() {
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(r -> new PropertiesResponse(r.header().reply(), Hosts.HIGH, r.sourceUuid(), r.offset(),
                501, 7, new int[45]), p);
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("501");
    }

    @Test
    void offsetPastTheBlockIsAnsweredWithSilence() {
        // the peer claims 90 dwords but only has 45: the second request gets no answer and times out
        int[] block = block("beta", true);
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(r -> r.offset() >= 45 ? null : new PropertiesResponse(r.header().reply(), Hosts.HIGH,
                r.sourceUuid(), r.offset(), 90, 7, Arrays.copyOf(block, 45)), p);
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("TIMEOUT");
    }

    @Test
    void zeroLengthBlockAndChunksPastTheEndAreRefused() {
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(r -> new PropertiesResponse(r.header().reply(), Hosts.HIGH, r.sourceUuid(), r.offset(),
                0, 7, new int[3]), p);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("block length 0");
        Hosts h2 = against(r -> new PropertiesResponse(r.header().reply(), Hosts.HIGH, r.sourceUuid(), r.offset(),
                10, 7, new int[11]), p);
        assertThat(h2.atA.peer().lastError().orElseThrow()).contains("runs past");
        Hosts h3 = against(r -> new PropertiesResponse(r.header().reply(), Hosts.HIGH, r.sourceUuid(), r.offset(),
                10, 7, new int[0]), p);
        assertThat(h3.atA.peer().lastError().orElseThrow()).contains("empty chunk");
    }

    @Test
    void generationGoingBackwardsIsIgnoredAndAGreaterOneAccepted() {
        int[] first = block("beta", true);
        int[] second = block("beta", false);
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(ScriptedPeer.honest(Hosts.HIGH, first, 5), p);
        assertThat(h.atA.peer().service("network")).isPresent();

        p[0].properties = ScriptedPeer.honest(Hosts.HIGH, second, 4);
        p[0].announce();
        int reads = h.tapA.sent(PropertiesRequest.class).size();
        h.runUntil(x -> x.tapA.sent(PropertiesRequest.class).size() > reads && x.atA.peer().enumerated(), 10_000);
        h.run(2_000);
        assertThat(h.tapA.sent(PropertiesRequest.class).size()).isGreaterThan(reads);
        assertThat(h.atA.peer().properties().orElseThrow().generation()).isEqualTo(5);
        assertThat(h.atA.peer().service("network")).isPresent();

        // generations are u32: 0x80000000 is greater than 5
        p[0].properties = ScriptedPeer.honest(Hosts.HIGH, second, 0x8000_0000);
        p[0].announce();
        h.runUntil(x -> x.atA.peer().service("network").isEmpty(), 10_000);
        assertThat(h.atA.peer().properties().orElseThrow().generation()).isEqualTo(0x8000_0000);
    }

    @Test
    void unusableBlocksStopDiscoveryWithoutRetrying() {
        int[] noVendor = PropertyBlock.format(PropertyDirectory.root(List.of(new Property.Immediate("deviceid", 1))));
        ScriptedPeer[] p = new ScriptedPeer[1];
        Hosts h = against(ScriptedPeer.honest(Hosts.HIGH, noVendor, 1), p);
        assertThat(h.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h.atA.peer().lastError().orElseThrow()).contains("vendorid");
        assertThat(h.tapA.sent(PropertiesRequest.class)).hasSize(1);

        int[] garbage = {0x12345678, 0, 0};
        Hosts h2 = against(ScriptedPeer.honest(Hosts.HIGH, garbage, 1), p);
        assertThat(h2.atA.peer().state()).isEqualTo(DiscoveryState.ERROR);
        assertThat(h2.atA.peer().lastError().orElseThrow()).contains("magic");
    }
}
