package io.xdlink.xdomain.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ServiceMatchTest {
    private static Service service(String key, int id, int version, int revision) {
        return new Service("0-1.0", 0, key, UUID.randomUUID(), id, version, revision, 0,
                new PropertyDirectory(UUID.randomUUID(), List.of()));
    }

    @Test
    void thunderboltNetMatchesByKeyAndId() {
        assertThat(ThunderboltNet.MATCH.matches(service("network", 1, 1, 1))).isTrue();
        assertThat(ThunderboltNet.MATCH.matches(service("network", 2, 1, 1))).isFalse();
        assertThat(ThunderboltNet.MATCH.matches(service("xdlink", 1, 1, 1))).isFalse();
        assertThat(XdlinkService.MATCH.matches(service("xdlink", 1, 7, 9))).isTrue();
    }

    @Test
    void revisionIsComparedOnlyUnderTheVersionFlag() {
        ServiceMatch revisionOnly = new ServiceMatch(ServiceMatch.KEY | ServiceMatch.REVISION, "x", 0, 0, 5);
        assertThat(revisionOnly.matches(service("x", 0, 0, 99))).isTrue(); // Linux ignores it
        ServiceMatch version = new ServiceMatch(ServiceMatch.KEY | ServiceMatch.VERSION, "x", 0, 2, 5);
        assertThat(version.matches(service("x", 0, 2, 5))).isTrue();
        assertThat(version.matches(service("x", 0, 2, 6))).isFalse(); // compared although REVISION is not set
        assertThat(version.matches(service("x", 0, 3, 5))).isFalse();
    }

    @Test
    void modaliasIsLinuxFormat() {
        assertThat(service("network", 1, 1, 1).modalias()).isEqualTo("tbsvc:knetworkp00000001v00000001r00000001");
        assertThat(service("x", 0xABCDEF12, 0, -1).modalias()).isEqualTo("tbsvc:kxpABCDEF12v00000000rFFFFFFFF");
    }

    @Test
    void missingStandardKeysReadAsZero() {
        Service s = Service.of("0-1", 2, new Property.Directory("bare", new PropertyDirectory(UUID.randomUUID(),
                List.of(new Property.Immediate("prtcvers", 3)))));
        assertThat(s.name()).isEqualTo("0-1.2");
        assertThat(s.prtcid()).isZero();
        assertThat(s.prtcvers()).isEqualTo(3);
    }

    @Test
    void remoteServicesKeepIdsAndTakeTheLowestFree() {
        RemoteServices r = new RemoteServices("0-1");
        PropertyDirectory net = ThunderboltNet.directory();
        PropertyDirectory x = XdlinkService.directory(0);
        PropertyDirectory other = new PropertyDirectory(UUID.randomUUID(), List.of());
        var root = PropertyDirectory.root(List.of(new Property.Directory("network", net),
                new Property.Directory("xdlink", x), new Property.Directory("other", other)));
        assertThat(r.update(root)).extracting(Service::name).containsExactly("0-1.0", "0-1.1", "0-1.2");
        var without = PropertyDirectory.root(List.of(new Property.Directory("network", net),
                new Property.Directory("other", other)));
        assertThat(r.update(without)).extracting(Service::name).containsExactly("0-1.0", "0-1.2");
        assertThat(r.update(root)).extracting(s -> s.name() + " " + s.key())
                .containsExactly("0-1.0 network", "0-1.2 other", "0-1.1 xdlink");
    }

    @Test
    void theDiscoveryProtocolIsNotAServiceProtocol() {
        ProtocolHandlers handlers = new ProtocolHandlers();
        assertThatThrownBy(() -> handlers.register(XdpCodec.XDP_UUID, (p, c) -> true))
                .isInstanceOf(IllegalArgumentException.class);
        handlers.register(ThunderboltNet.PROTOCOL_UUID, (p, c) -> true);
        assertThat(handlers.counts()).containsEntry(ThunderboltNet.PROTOCOL_UUID, 1L);
    }
}
