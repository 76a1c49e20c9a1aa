package io.xdlink.xdomain.service;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.Property.Immediate;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * xdlink's own XDomain service: a directory under key {@code xdlink} beside thunderbolt-net's {@code network},
 * with its own directory UUID and its own protocol UUID for its control packets. Both UUIDs are random version-4
 * UUIDs drawn once for xdlink and fixed forever; a peer recognises xdlink by them.
 *
 * <p>Settings ({@code prtcstns}) say what the publishing host can do, one bit each:
 * <ul>
 *   <li>{@link #RAIL_TCP} 0x1: rails over TCP on the thunderbolt-net interface ({@code thunderbolt<N>});</li>
 *   <li>{@link #RAIL_DMA} 0x2: rails over USB4 DMA rings of their own (the simulator's);</li>
 *   <li>{@link #E2E} 0x4: DMA rails can run with end-to-end flow control (off on hosts whose controllers wedge);</li>
 *   <li>{@link #WRITE_WITH_IMM} 0x8: RDMA-style WRITE_WITH_IMM;</li>
 *   <li>{@link #MULTI_RAIL} 0x10: striping one write over several rails.</li>
 * </ul>
 * Bits 31:5 are reserved, sent as zero and ignored when received.
 */
public final class XdlinkService {
    public static final String KEY = "xdlink";
    /** xdlink's control protocol UUID (random v4, fixed). */
    public static final UUID PROTOCOL_UUID = UUID.fromString("37ef0d21-ad4a-4c07-9101-046474271f40");
    /** The {@code xdlink} directory's UUID (random v4, fixed). */
    public static final UUID DIRECTORY_UUID = UUID.fromString("37e19fd9-b46a-4a6e-a015-5237b40c4808");
    public static final int PRTCID = 1;
    public static final int PRTCVERS = 1;
    public static final int PRTCREVS = 0;

    public static final int RAIL_TCP = 0x1;
    public static final int RAIL_DMA = 0x2;
    public static final int E2E = 0x4;
    public static final int WRITE_WITH_IMM = 0x8;
    public static final int MULTI_RAIL = 0x10;
    /** Every settings bit xdlink defines. */
    public static final int KNOWN_SETTINGS = RAIL_TCP | RAIL_DMA | E2E | WRITE_WITH_IMM | MULTI_RAIL;

    /** Binds to any xdlink service of protocol id 1, whatever its version and revision. */
    public static final ServiceMatch MATCH = new ServiceMatch(ServiceMatch.KEY | ServiceMatch.ID, KEY, PRTCID, 0, 0);

    private XdlinkService() {
    }

    /** The directory with {@code settings}. */
    public static PropertyDirectory directory(int settings) {
        return directory(settings, List.of());
    }

    /**
     * The directory with {@code settings} and further entries after the four standard ones (for example the
     * rails' addresses).
     */
    public static PropertyDirectory directory(int settings, List<Property> extra) {
        if ((settings & ~KNOWN_SETTINGS) != 0) {
            throw new IllegalArgumentException(String.format("unknown xdlink settings bits 0x%08x",
                    settings & ~KNOWN_SETTINGS));
        }
        List<Property> list = new ArrayList<>(List.of(new Immediate("prtcid", PRTCID),
                new Immediate("prtcvers", PRTCVERS), new Immediate("prtcrevs", PRTCREVS),
                new Immediate("prtcstns", settings)));
        list.addAll(extra);
        return new PropertyDirectory(DIRECTORY_UUID, list);
    }

    /** Names of the settings bits set in {@code settings}, e.g. {@code RAIL_TCP|E2E}; unknown bits in hex. */
    public static String describe(int settings) {
        List<String> names = new ArrayList<>();
        String[] known = {"RAIL_TCP", "RAIL_DMA", "E2E", "WRITE_WITH_IMM", "MULTI_RAIL"};
        for (int i = 0; i < known.length; i++) {
            if ((settings & (1 << i)) != 0) {
                names.add(known[i]);
            }
        }
        if ((settings & ~KNOWN_SETTINGS) != 0) {
            names.add(String.format("0x%x", settings & ~KNOWN_SETTINGS));
        }
        return names.isEmpty() ? "none" : String.join("|", names);
    }
}
