package io.xdlink.rails.host;

import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;
import io.xdlink.params.Params;
import io.xdlink.rails.tcp.TcpParams;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostFabricConfigTest {
    static final ParamRegistry REGISTRY = ParamRegistry.of(List.of(new TcpParams()));
    static final Origin CLI = Origin.explicit("--param");

    private static Params with(String name, String value) {
        return Params.defaults(REGISTRY).with(name, value, CLI);
    }

    @Test
    void defaultsAndExplicitValuesResolve() throws Exception {
        HostFabricConfig d = HostFabricConfig.from(Params.defaults(REGISTRY));
        assertThat(d.root()).isEqualTo(Path.of("/"));
        assertThat(d.controlPort()).isEqualTo(18520);
        assertThat(d.peerAddresses()).isEmpty();
        assertThat(d.tcp().keepaliveInterval()).isEqualTo(Duration.ofMillis(250));
        HostFabricConfig c = HostFabricConfig.from(Params.defaults(REGISTRY)
                .with("tcp_peer_address", "10.0.0.2:18520,[fd00::2]:9", CLI)
                .with("tcp_rail_interface", "0-1=thunderbolt0, 0-3 = 10.0.1.1", CLI));
        assertThat(c.peerAddresses()).containsExactly(new InetSocketAddress(InetAddress.ofLiteral("10.0.0.2"), 18520),
                new InetSocketAddress(InetAddress.ofLiteral("fd00::2"), 9));
        assertThat(c.interfaceOverride()).isEqualTo(Map.of("0-1", "thunderbolt0", "0-3", "10.0.1.1"));
    }

    @Test
    void malformedEntriesNameTheParameterAndTheEntry() {
        assertThatThrownBy(() -> HostFabricConfig.from(with("tcp_peer_address", "peer.example:18520")))
                .isInstanceOf(ParamException.class)
                .hasMessage("--param: bad entry 'peer.example:18520' in tcp_peer_address: 'peer.example' is not an IP address");
        assertThatThrownBy(() -> HostFabricConfig.from(with("tcp_peer_address", "10.0.0.2")))
                .hasMessageContaining("use address:port");
        assertThatThrownBy(() -> HostFabricConfig.from(with("tcp_peer_address", "10.0.0.2:70000")))
                .hasMessageEndingWith("port 70000 is outside 1..65535");
        assertThatThrownBy(() -> HostFabricConfig.from(with("tcp_peer_address", "fd00::2:9")))
                .hasMessageContaining("write an IPv6 address in brackets");
        assertThatThrownBy(() -> HostFabricConfig.from(with("tcp_rail_interface", "thunderbolt0")))
                .hasMessageContaining("use link=interface or link=address");
        assertThatThrownBy(() -> HostFabricConfig.from(Params.defaults(REGISTRY)
                .with("tcp_keepalive_interval_ms", "100", CLI).with("tcp_keepalive_timeout_ms", "50", CLI)))
                .hasMessage("--param: tcp_keepalive_timeout_ms (50 ms) must be longer than tcp_keepalive_interval_ms (100 ms)");
    }

    @Test
    void theHostFabricStandsAsideWhenLoopbackIsOn() throws IOException {
        ParamProvider sim = new ParamProvider() {
            @Override
            public String module() {
                return "sim";
            }

            @Override
            public List<ParamSpec<?>> specs() {
                return List.of(ParamSpec.builder("loopback", new ParamType.Int(0, 8, true)).defaultValue(0L)
                        .description("simulated peers").build());
            }
        };
        ParamRegistry both = ParamRegistry.of(List.of(new TcpParams(), sim));
        assertThat(HostFabricProvider.loopbackOn(Params.defaults(both))).isFalse();
        assertThat(HostFabricProvider.loopbackOn(Params.defaults(REGISTRY))).isFalse();
        Params on = Params.defaults(both).with("loopback", "2", CLI);
        assertThat(HostFabricProvider.loopbackOn(on)).isTrue();
        assertThat(new HostFabricProvider().open(on)).isEmpty();
        assertThat(new HostFabricProvider().name()).isEqualTo("host");
    }

    @Test
    void interfacesAndAddressesResolveToWhatToBind() throws IOException {
        LocalAddress lo = LocalAddress.resolve("lo");
        assertThat(lo.address().isLoopbackAddress()).isTrue();
        assertThat(LocalAddress.resolve("127.0.0.1")).isEqualTo(new LocalAddress("lo", InetAddress.ofLiteral("127.0.0.1"), 8));
        assertThatThrownBy(() -> LocalAddress.resolve("thunderbolt97")).isInstanceOf(IOException.class)
                .hasMessage("no network interface named thunderbolt97 (is thunderbolt-net loaded and the cable plugged in?)");
        assertThatThrownBy(() -> LocalAddress.resolve("192.0.2.77")).isInstanceOf(IOException.class)
                .hasMessage("no local interface has address 192.0.2.77");
    }
}
