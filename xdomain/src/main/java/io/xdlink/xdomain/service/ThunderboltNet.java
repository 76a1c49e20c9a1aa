package io.xdlink.xdomain.service;

import io.xdlink.xdomain.property.Property.Immediate;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.List;
import java.util.UUID;

/** Linux's thunderbolt-net service as it publishes itself, value for value. */
public final class ThunderboltNet {
    public static final String KEY = "network";
    /** The {@code network} directory's UUID. */
    public static final UUID DIRECTORY_UUID = UUID.fromString("c66189ca-1cce-4195-bdb8-49592e5f5a4f");
    /** ThunderboltIP, the protocol of its control packets (login, logout, status). */
    public static final UUID PROTOCOL_UUID = UUID.fromString("798f589e-3616-8a47-97c6-5664a920c8dd");
    public static final int PRTCID = 1;
    public static final int PRTCVERS = 1;
    public static final int PRTCREVS = 1;
    /** End-to-end flow control. */
    public static final int E2E = 0x1;
    /** Fragments carry a frame id to match. */
    public static final int MATCH_FRAGS_ID = 0x2;
    /** 64 KiB frames. */
    public static final int FRAMES_64K = 0x4;
    public static final int PRTCSTNS = E2E | MATCH_FRAGS_ID | FRAMES_64K;
    /** Its driver's match entry: {@code TB_SERVICE("network", 1)}. */
    public static final ServiceMatch MATCH = ServiceMatch.of(KEY, PRTCID);

    private ThunderboltNet() {
    }

    /** The directory, entries in the order the driver adds them. */
    public static PropertyDirectory directory() {
        return new PropertyDirectory(DIRECTORY_UUID, List.of(new Immediate("prtcid", PRTCID),
                new Immediate("prtcvers", PRTCVERS), new Immediate("prtcrevs", PRTCREVS),
                new Immediate("prtcstns", PRTCSTNS)));
    }
}
