package io.xdlink.rails.tcp;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyDirectory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The entries of xdlink's service directory that name a host's TCP rails: one sub-directory per link,
 * {@code tcp0} to {@code tcp7}, each holding the rail listener's address ({@code addr}, data of 4 or 16 bytes), port
 * ({@code port}, immediate), the address's prefix length ({@code prefix}, immediate) and the publisher's name for the
 * link ({@code link}, text). Binary fields, so reading them needs no text parsing; every field is checked, and a
 * peer's bad entry is refused naming the entry and field.
 */
public final class TcpRailDirectory {
    /** UUID of each {@code tcpN} sub-directory (a property sub-directory must carry one). */
    public static final UUID LINK_DIRECTORY = UUID.fromString("61e8652b-071a-46d8-92ca-65518003fac3");
    /** Links published at most: a property block is at most 500 dwords and shares them with other services. */
    public static final int MAX_LINKS = 8;
    /** Longest link id published. */
    public static final int MAX_LINK_ID = 32;
    private static final Pattern KEY = Pattern.compile("tcp[0-7]");
    private static final Pattern LINK_ID = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_LINK_ID + "}");

    private TcpRailDirectory() {
    }

    /** The entries naming {@code endpoints}, to add to xdlink's service directory. */
    public static List<Property> entries(List<TcpLinkEndpoint> endpoints) {
        if (endpoints.size() > MAX_LINKS) {
            throw new IllegalArgumentException(endpoints.size() + " links; at most " + MAX_LINKS + " are published");
        }
        List<Property> out = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            TcpLinkEndpoint e = endpoints.get(i);
            if (!LINK_ID.matcher(e.linkId()).matches()) {
                throw new IllegalArgumentException("link id '" + e.linkId() + "' is not publishable");
            }
            out.add(new Property.Directory("tcp" + i, new PropertyDirectory(LINK_DIRECTORY, List.of(
                    new Property.Data("addr", e.address().getAddress()),
                    new Property.Immediate("port", e.port()),
                    new Property.Immediate("prefix", e.prefixLength()),
                    Property.Text.of("link", e.linkId())))));
        }
        return out;
    }

    /**
     * The endpoints a peer published in its xdlink service directory.
     *
     * @throws RailDirectoryException naming the entry and field when one is missing or out of range
     */
    public static List<TcpLinkEndpoint> read(PropertyDirectory service) {
        List<TcpLinkEndpoint> out = new ArrayList<>();
        for (Property p : service.properties()) {
            if (!(p instanceof Property.Directory(String key, PropertyDirectory dir)) || !KEY.matcher(key).matches()) {
                continue;
            }
            if (!LINK_DIRECTORY.equals(dir.uuid())) {
                throw new RailDirectoryException(key, "directory UUID " + dir.uuid() + " is not " + LINK_DIRECTORY);
            }
            byte[] addr = dir.find("addr", Property.Data.class)
                    .orElseThrow(() -> new RailDirectoryException(key + " addr", "missing")).bytes();
            if (addr.length != 4 && addr.length != 16) {
                throw new RailDirectoryException(key + " addr", addr.length + " bytes; an address is 4 or 16");
            }
            int port = required(dir.immediate("port"), key + " port");
            if (port < 1 || port > 65535) {
                throw new RailDirectoryException(key + " port", Integer.toUnsignedString(port) + " is outside 1..65535");
            }
            int prefix = required(dir.immediate("prefix"), key + " prefix");
            if (prefix < 0 || prefix > addr.length * 8) {
                throw new RailDirectoryException(key + " prefix",
                        Integer.toUnsignedString(prefix) + " is outside 0.." + addr.length * 8);
            }
            String link = dir.text("link").orElseThrow(() -> new RailDirectoryException(key + " link", "missing"));
            if (!LINK_ID.matcher(link).matches()) {
                throw new RailDirectoryException(key + " link", "'" + printable(link) + "' is not a link id");
            }
            InetAddress address;
            try {
                address = InetAddress.getByAddress(addr);
            } catch (UnknownHostException impossible) {
                throw new AssertionError(impossible);
            }
            out.add(new TcpLinkEndpoint(link, address, port, prefix));
        }
        if (out.size() > MAX_LINKS) {
            throw new RailDirectoryException("tcp", out.size() + " links; at most " + MAX_LINKS);
        }
        return List.copyOf(out);
    }

    private static int required(Optional<Integer> v, String field) {
        return v.orElseThrow(() -> new RailDirectoryException(field, "missing"));
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(40).forEach(c -> b.append(c >= 0x20 && c < 0x7F ? Character.toString(c) : "?"));
        return b.toString();
    }
}
