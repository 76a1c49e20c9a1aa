package io.xdlink.xdomain.sysfs;

import java.util.OptionalLong;

/** A service's protocol fields as one phrase: {@code id 1 version 1 revision 1 settings 0x00000007}. */
public final class ServiceText {
    private ServiceText() {
    }

    public static String protocol(SysfsService s) {
        return "id " + num(s.protocolId()) + " version " + num(s.version()) + " revision " + num(s.revision())
                + " settings " + (s.settings().isPresent() ? String.format("0x%08x", s.settings().getAsLong()) : "?");
    }

    private static String num(OptionalLong v) {
        return v.isPresent() ? Long.toString(v.getAsLong()) : "?";
    }
}
