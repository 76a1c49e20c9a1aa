package io.xdlink.xdomain.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServiceRegistryTest {

    @Test
    void generationMovesOnAddAndRemoveAndPeersAreToldEachTime() {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux("alpha"), 0xFFFF_FFFF);
        AtomicInteger told = new AtomicInteger();
        r.addListener(told::incrementAndGet);
        PropertyDirectory net = ThunderboltNet.directory();
        r.register(ThunderboltNet.KEY, net);
        assertThat(r.generation()).isZero(); // u32 wraps
        r.unregister(ThunderboltNet.KEY, net);
        assertThat(r.generation()).isEqualTo(1);
        // withdrawing what is not there moves nothing, but peers still hear about it (as in Linux)
        r.unregister(ThunderboltNet.KEY, net);
        assertThat(r.generation()).isEqualTo(1);
        assertThat(told).hasValue(3);
    }

    @Test
    void keysAreUniqueAndShort() {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux("alpha"), 0);
        r.register(ThunderboltNet.KEY, ThunderboltNet.directory());
        assertThatThrownBy(() -> r.register(ThunderboltNet.KEY, ThunderboltNet.directory()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("network");
        assertThatThrownBy(() -> r.register("ninechars", ThunderboltNet.directory()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register("noid", PropertyDirectory.root(List.of())))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(r.generation()).isEqualTo(1);
    }

    @Test
    void blockIsLaidOutInLinuxOrder() {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux("alpha"), 0);
        r.register(ThunderboltNet.KEY, ThunderboltNet.directory());
        r.register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP));
        List<String> keys = r.block(12).root().properties().stream()
                .map(p -> p.key() + "/" + (char) p.type()).toList();
        assertThat(keys).containsExactly("vendorid/v", "vendorid/t", "deviceid/v", "devicerv/v", "network/D",
                "xdlink/D", "deviceid/t", "maxhopid/v");
        assertThat(r.block(12).root().immediate("maxhopid")).contains(12);
    }

    @Test
    void aBlockOver500DwordsIsRefusedUpFront() {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux("alpha"), 0);
        List<Property> big = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            big.add(new Property.Immediate("k" + i, i));
        }
        assertThatThrownBy(() -> r.register("big", new PropertyDirectory(UUID.randomUUID(), big)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("500");
        assertThat(r.services()).isEmpty();
        assertThat(r.generation()).isZero();
        assertThat(PropertyBlock.format(r.block(15).root())).hasSizeLessThan(500);
    }

    @Test
    void xdlinkDirectoryCarriesItsSettings() {
        PropertyDirectory d = XdlinkService.directory(XdlinkService.RAIL_TCP | XdlinkService.MULTI_RAIL);
        assertThat(d.uuid()).isEqualTo(XdlinkService.DIRECTORY_UUID);
        assertThat(d.immediate("prtcstns")).contains(0x11);
        assertThat(XdlinkService.describe(0x11)).isEqualTo("RAIL_TCP|MULTI_RAIL");
        assertThat(XdlinkService.describe(0x40)).isEqualTo("0x40");
        assertThatThrownBy(() -> XdlinkService.directory(0x20)).isInstanceOf(IllegalArgumentException.class);
        assertThat(XdlinkService.PROTOCOL_UUID.version()).isEqualTo(4);
        assertThat(XdlinkService.DIRECTORY_UUID.version()).isEqualTo(4);
        assertThat(XdlinkService.PROTOCOL_UUID).isNotEqualTo(XdlinkService.DIRECTORY_UUID);
    }
}
