package io.xdlink.xdomain.service;

import java.util.Objects;

/**
 * What a host says about itself in the root of its property block.
 *
 * @param vendorId       {@code vendorid} immediate
 * @param vendorName     {@code vendorid} text
 * @param deviceId       {@code deviceid} immediate
 * @param deviceRevision {@code devicerv} immediate
 * @param hostname       {@code deviceid} text (a Linux host publishes its node name)
 */
public record HostIdentity(int vendorId, String vendorName, int deviceId, int deviceRevision, String hostname) {

    public HostIdentity {
        Objects.requireNonNull(vendorName, "vendorName");
        Objects.requireNonNull(hostname, "hostname");
    }

    /** What a Linux host publishes: vendorid 0x8086 "Intel Corp.", deviceid 0x1, devicerv 0x80000100. */
    public static HostIdentity linux(String hostname) {
        return new HostIdentity(0x8086, "Intel Corp.", 0x1, 0x8000_0100, hostname);
    }
}
