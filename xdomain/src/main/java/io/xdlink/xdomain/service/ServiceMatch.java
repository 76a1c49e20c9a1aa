package io.xdlink.xdomain.service;

import java.util.Objects;

/**
 * A service driver's match entry (Linux's {@code tb_service_id}): which of key, protocol id, version and revision
 * a service must carry for the driver to bind.
 *
 * <p>Linux quirk kept on purpose: the revision is compared only when {@link #VERSION} is set, whether or not
 * {@link #REVISION} is; {@link #REVISION} alone matches any revision. A driver written against Linux binds to the
 * same services here.
 */
public record ServiceMatch(int flags, String key, int protocolId, int version, int revision) {
    public static final int KEY = 0x1;
    public static final int ID = 0x2;
    public static final int VERSION = 0x4;
    public static final int REVISION = 0x8;

    public ServiceMatch {
        if ((flags & ~0xF) != 0 || flags == 0) {
            throw new IllegalArgumentException("match flags are a non-empty combination of 0xF: " + flags);
        }
        if ((flags & KEY) != 0) {
            Objects.requireNonNull(key, "key");
        }
    }

    /** {@code TB_SERVICE(key, id)}: key and protocol id. */
    public static ServiceMatch of(String key, int protocolId) {
        return new ServiceMatch(KEY | ID, key, protocolId, 0, 0);
    }

    public boolean matches(Service service) {
        if ((flags & KEY) != 0 && !key.equals(service.key())) {
            return false;
        }
        if ((flags & ID) != 0 && protocolId != service.prtcid()) {
            return false;
        }
        if ((flags & VERSION) != 0 && version != service.prtcvers()) {
            return false;
        }
        return (flags & VERSION) == 0 || revision == service.prtcrevs();
    }
}
