package io.xdlink.xdomain.sysfs;

import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Strict parsers for the formats the Linux thunderbolt driver writes (spec xdomain.md section 7). Strict, because a
 * value that does not look like what the kernel prints means the tree is not what we think it is, and the user should
 * hear so instead of getting a guess.
 */
final class Attributes {
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{1,8}|0");
    private static final Pattern UNSIGNED = Pattern.compile("[0-9]{1,10}");
    private static final Pattern SIGNED = Pattern.compile("-?[0-9]{1,10}");
    private static final Pattern SPEED = Pattern.compile("([0-9]{1,4})\\.0 Gb/s");
    private static final Pattern LANES = Pattern.compile("[123]");
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern SETTINGS = Pattern.compile("0x[0-9a-fA-F]{8}");

    private Attributes() {
    }

    /** {@code %#x}: {@code 0x8086}, or {@code 0} for zero (the {@code #} flag adds no prefix to zero). */
    static int hex(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!HEX.matcher(v).matches()) {
            throw expected(file, "a hexadecimal id like 0x8086", v);
        }
        return v.equals("0") ? 0 : Integer.parseUnsignedInt(v.substring(2), 16);
    }

    /** {@code %u} of a 32-bit value. */
    static long unsigned(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!UNSIGNED.matcher(v).matches()) {
            throw expected(file, "an unsigned number", v);
        }
        long n = Long.parseLong(v);
        if (n > 0xffff_ffffL) {
            throw expected(file, "a 32-bit unsigned number", v);
        }
        return n;
    }

    /** {@code maxhopid} ({@code %d}): the kernel prints what the peer advertised, so a negative one is possible. */
    static int hopId(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!SIGNED.matcher(v).matches()) {
            throw expected(file, "a HopID number", v);
        }
        long n = Long.parseLong(v);
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw expected(file, "a non-negative HopID", v);
        }
        return (int) n;
    }

    /** {@code %u.0 Gb/s}, per lane; returned in Mb/s. Zero means no link speed was recorded. */
    static long laneMbps(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        var m = SPEED.matcher(v);
        if (!m.matches()) {
            throw expected(file, "a per-lane speed like \"20.0 Gb/s\"", v);
        }
        long gbps = Long.parseLong(m.group(1));
        if (gbps == 0) {
            throw expected(file, "a non-zero speed (the link has not reported one)", v);
        }
        return gbps * 1000;
    }

    /** {@code 1}, {@code 2} or {@code 3} (3 only on asymmetric Gen 4 links). */
    static int lanes(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!LANES.matcher(v).matches()) {
            throw expected(file, "1, 2 or 3 lanes", v);
        }
        return v.charAt(0) - '0';
    }

    /** {@code %pUb}: a UUID, lower case from the kernel (upper case accepted). */
    static UUID uuid(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!UUID_TEXT.matcher(v).matches()) {
            throw expected(file, "a UUID like 01234567-89ab-cdef-0123-456789abcdef", v);
        }
        return UUID.fromString(v.toLowerCase(Locale.ROOT));
    }

    /** {@code 0x%08x}: protocol settings bits. */
    static long settings(Path file) throws SysfsException {
        String v = SysfsFiles.read(file).trim();
        if (!SETTINGS.matcher(v).matches()) {
            throw expected(file, "settings like 0x00000001", v);
        }
        return Long.parseLong(v.substring(2), 16);
    }

    /** Free text (names, keys, modalias), made safe to print; empty is allowed. */
    static String text(Path file) throws SysfsException {
        return Text.printable(SysfsFiles.read(file));
    }

    /** The DEVTYPE line of a {@code uevent} file, or empty text when it has none. */
    static String devtype(Path uevent) throws SysfsException {
        for (String line : SysfsFiles.read(uevent).split("\n", 64)) {
            if (line.startsWith("DEVTYPE=")) {
                return line.substring("DEVTYPE=".length()).trim();
            }
        }
        return "";
    }

    private static SysfsException expected(Path file, String what, String found) {
        return new SysfsException(file, "expected " + what + ", found " + Text.quote(found));
    }
}
