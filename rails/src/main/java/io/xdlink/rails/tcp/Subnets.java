package io.xdlink.rails.tcp;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** Prefix arithmetic on addresses: which subnet an address is in, and the other end of a point-to-point subnet. */
public final class Subnets {
    private Subnets() {
    }

    /** True when {@code other} has the same family as {@code address} and the same first {@code prefix} bits. */
    public static boolean contains(InetAddress address, int prefix, InetAddress other) {
        byte[] a = address.getAddress();
        byte[] b = other.getAddress();
        if (a.length != b.length || prefix < 0 || prefix > a.length * 8) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[whole] & mask) == (b[whole] & mask);
    }

    /** The first address of {@code address}'s subnet of {@code prefix} bits (0 up to the address's width). */
    public static InetAddress network(InetAddress address, int prefix) {
        byte[] b = address.getAddress();
        if (prefix < 0 || prefix > b.length * 8) {
            throw new IllegalArgumentException("prefix /" + prefix + " is outside 0.." + b.length * 8 + " for "
                    + address.getHostAddress());
        }
        for (int bit = prefix; bit < b.length * 8; bit++) {
            b[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError("an address of " + b.length + " bytes", e);
        }
    }

    /**
     * The other host of a point-to-point IPv4 subnet: the other address of a /31, or the other usable address of a
     * /30 (the way each end of a cable is usually numbered). Empty for any other prefix or family.
     */
    public static Optional<InetAddress> otherEnd(InetAddress local, int prefix) {
        byte[] a = local.getAddress();
        if (a.length != 4 || (prefix != 30 && prefix != 31)) {
            return Optional.empty();
        }
        int v = ((a[0] & 0xFF) << 24) | ((a[1] & 0xFF) << 16) | ((a[2] & 0xFF) << 8) | (a[3] & 0xFF);
        int other;
        if (prefix == 31) {
            other = v ^ 1;
        } else {
            int host = v & 3;
            if (host == 0 || host == 3) {
                return Optional.empty(); // network or broadcast address: not a host of this subnet
            }
            other = (v & ~3) | (host ^ 3);
        }
        try {
            return Optional.of(InetAddress.getByAddress(new byte[] {
                    (byte) (other >>> 24), (byte) (other >>> 16), (byte) (other >>> 8), (byte) other}));
        } catch (UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
    }
}
