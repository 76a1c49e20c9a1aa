package io.xdlink.ccl;

import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The speed a device reports is what its links negotiated, never a constant. */
class DeviceModelTest {
    private static final UUID PEER = UUID.fromString("8e3a5a2c-1b7d-4c2e-9f00-0123456789ab");

    private static PeerInfo peer(LinkInfo... links) {
        return new PeerInfo(PEER, "strix-2", List.of(links));
    }

    @Test
    void speedIsTheNegotiatedRateOfTheLinks() {
        assertThat(DeviceModel.speedMbps(List.of(new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN3, 2)))))
                .isEqualTo(40_000);
        assertThat(DeviceModel.speedMbps(List.of(new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN3, 1)))))
                .as("a refused bond").isEqualTo(20_000);
        assertThat(DeviceModel.speedMbps(List.of(new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN2, 2)))))
                .isEqualTo(20_000);
        assertThat(DeviceModel.speedMbps(List.of(new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN4, 2)))))
                .isEqualTo(80_000);
    }

    @Test
    void railsOnOneCableCountOnceAndCablesAddUp() {
        LinkInfo a = new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN3, 2));
        LinkInfo b = new LinkInfo("0-3", "p2", LinkState.of(Generation.GEN3, 1));
        assertThat(DeviceModel.speedMbps(List.of(a, a))).isEqualTo(40_000);
        assertThat(DeviceModel.speedMbps(List.of(a, b))).isEqualTo(60_000);
    }

    @Test
    void theSlowerDirectionSummedOverCablesIsReported() {
        LinkInfo x = new LinkInfo("0-1", "p1", new LinkState(20_000, 2, 20_000, 1));
        LinkInfo y = new LinkInfo("0-3", "p2", new LinkState(20_000, 1, 20_000, 2));
        assertThat(DeviceModel.speedMbps(List.of(x))).isEqualTo(20_000);
        assertThat(DeviceModel.speedMbps(List.of(x, y))).isEqualTo(60_000);
    }

    @Test
    void propertiesFollowTheHostOnlyRulesAndTheLoopbackHasNoPciPath() {
        PeerInfo p = peer(new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN3, 2)));
        DeviceProperties loop = DeviceModel.properties(0, p, true, Optional.of("/sys/x"), Optional.empty());
        assertThat(loop.pciPath()).isEmpty();
        assertThat(loop.name()).isEqualTo("xdlink-loopback0");
        assertThat(loop.speedMbps()).isEqualTo(40_000);
        assertThat(loop.ptrSupport()).isEqualTo(DeviceProperties.PTR_HOST);
        assertThat(loop.maxRecvs()).isEqualTo(CclNet.MAX_RECVS);
        assertThat(loop.vDevices()).containsExactly(0);
        assertThat(loop.maxP2pBytes()).isPositive().isLessThanOrEqualTo(DeviceProperties.MAX_NET_SIZE_BYTES);
        assertThat(loop.maxMultiRequestSize()).isEqualTo(1);
        assertThat(loop.latencyMicros()).isEqualTo(4096 * 8 / 40_000f);

        DeviceProperties real = DeviceModel.properties(2, p, false,
                Optional.of("/sys/devices/pci0000:00/0000:00:0d.2"), Optional.of(3.5f));
        assertThat(real.pciPath()).contains("/sys/devices/pci0000:00/0000:00:0d.2");
        assertThat(real.name()).isEqualTo("xdlink-strix-2");
        assertThat(real.latencyMicros()).isEqualTo(3.5f);
        assertThat(real.guid()).isEqualTo(loop.guid());
    }

    @Test
    void deviceNamesHoldNothingNcclSplitsALisOn() {
        LinkInfo l = new LinkInfo("0-1", "p1", LinkState.of(Generation.GEN3, 2));
        PeerInfo hostile = new PeerInfo(new UUID(1, 2), "box:1,^=x y\u202e\n", List.of(l));
        String name = DeviceModel.properties(0, hostile, false, Optional.empty(), Optional.empty()).name();
        assertThat(name).isEqualTo("xdlink-box_1___x_y__").doesNotContain(":", ",", "^", "=", " ");
        assertThat(DeviceModel.deviceName(3, hostile, true)).isEqualTo("xdlink-loopback3");
        assertThat(DeviceModel.deviceName(1, new PeerInfo(new UUID(1, 2), "", List.of(l)), false))
                .isEqualTo("xdlink-1");
        assertThat(DeviceModel.deviceName(0, new PeerInfo(new UUID(1, 2), "n".repeat(500), List.of(l)), false))
                .hasSize("xdlink-".length() + 64);
    }

    @Test
    void aPeerWithoutALinkHasNoDevice() {
        assertThatThrownBy(() -> DeviceModel.properties(0, peer(), true, Optional.empty(), Optional.empty()))
                .hasMessageContaining("strix-2");
    }
}
