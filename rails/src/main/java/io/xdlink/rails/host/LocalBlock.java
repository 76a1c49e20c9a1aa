package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpRailDirectory;
import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The property block a host answers a peer's properties requests with over a TCP session: the root keys a Linux
 * host publishes (a peer without {@code vendorid} and {@code deviceid} is refused by XDomain), and xdlink's service
 * directory naming the host's TCP rail listeners, one entry per link.
 */
final class LocalBlock {
    /** xdlink's service directory: key and UUID. */
    static final String SERVICE_KEY = "xdlink";
    static final UUID SERVICE_UUID = UUID.fromString("909b408b-3ac1-4780-8fa4-80e50e42fae2");
    static final int PROTOCOL_ID = 1;
    static final int PROTOCOL_VERSION = 1;

    private LocalBlock() {
    }

    /** The block's words, for a host named {@code hostName} whose rails listen at {@code endpoints}. */
    static int[] words(String hostName, List<TcpLinkEndpoint> endpoints) {
        List<Property> service = new ArrayList<>(List.of(
                new Property.Immediate("prtcid", PROTOCOL_ID),
                new Property.Immediate("prtcvers", PROTOCOL_VERSION),
                new Property.Immediate("prtcrevs", 0),
                new Property.Immediate("prtcstns", 0)));
        service.addAll(TcpRailDirectory.entries(endpoints));
        PropertyDirectory root = PropertyDirectory.root(List.of(
                new Property.Immediate("vendorid", 0x8086),
                Property.Text.of("vendorid", "Intel Corp."),
                new Property.Immediate("deviceid", 0x1),
                Property.Text.of("deviceid", hostName),
                new Property.Immediate("devicerv", 0x80000100),
                new Property.Directory(SERVICE_KEY, new PropertyDirectory(SERVICE_UUID, service))));
        return PropertyBlock.format(root);
    }

    /** xdlink's service directory in a peer's root block, if it publishes one. */
    static Optional<PropertyDirectory> service(PropertyDirectory root) {
        return root.directory(SERVICE_KEY).filter(d -> SERVICE_UUID.equals(d.uuid()));
    }
}
