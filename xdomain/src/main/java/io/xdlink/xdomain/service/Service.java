package io.xdlink.xdomain.service;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyDirectory;
import java.util.Objects;
import java.util.UUID;

/**
 * A service a peer offers: one directory of the peer's property block, as Linux presents it on the bus.
 *
 * @param name      {@code <peer>.<id>}, for example {@code 0-1.0}
 * @param id        the lowest id free when the service appeared
 * @param key       the directory's key ({@code network}, {@code xdlink})
 * @param uuid      the directory's UUID
 * @param prtcid    protocol id ({@code prtcid}, 0 when missing)
 * @param prtcvers  protocol version
 * @param prtcrevs  protocol revision
 * @param prtcstns  protocol settings (bit flags the service defines)
 * @param directory the whole directory, for keys beyond the four standard ones
 */
public record Service(String name, int id, String key, UUID uuid, int prtcid, int prtcvers, int prtcrevs,
                      int prtcstns, PropertyDirectory directory) {

    public Service {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(directory, "directory");
    }

    /** The service {@code dir} of peer {@code peerName} with {@code id}; missing standard keys read as 0. */
    public static Service of(String peerName, int id, Property.Directory dir) {
        PropertyDirectory d = dir.directory();
        return new Service(peerName + "." + id, id, dir.key(), d.uuid(), d.immediate("prtcid").orElse(0),
                d.immediate("prtcvers").orElse(0), d.immediate("prtcrevs").orElse(0),
                d.immediate("prtcstns").orElse(0), d);
    }

    /** {@code tbsvc:k<key>p<prtcid>v<prtcvers>r<prtcrevs>}, hex fields of 8 upper-case digits, as Linux writes it. */
    public String modalias() {
        return String.format("tbsvc:k%sp%08Xv%08Xr%08X", key, prtcid, prtcvers, prtcrevs);
    }
}
