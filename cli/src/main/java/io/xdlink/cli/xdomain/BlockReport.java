package io.xdlink.cli.xdomain;

import io.xdlink.xdomain.property.Property;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.property.PropertyFormatException;
import io.xdlink.xdomain.service.ThunderboltNet;
import io.xdlink.xdomain.service.XdlinkService;
import io.xdlink.xdomain.sysfs.Text;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Decodes a property block: one line per entry, sub-directories indented under their key. */
final class BlockReport {
    private BlockReport() {
    }

    static Report of(int[] words) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", "property block");
        json.put("dwords", words.length);
        List<String> lines = new ArrayList<>();
        PropertyDirectory root;
        try {
            root = PropertyBlock.parse(words);
        } catch (PropertyFormatException e) {
            lines.add("XDomain property block, " + words.length + " dwords: not valid");
            lines.add("  problem  " + e.getMessage());
            json.put("valid", false);
            json.put("problem", Map.of("field", e.field(), "message", e.getMessage()));
            return new Report(lines, json, false);
        }
        lines.add("XDomain property block, " + words.length + " dwords, root " + root.properties().size()
                + " entries");
        lines(root, "  ", lines);
        json.put("valid", true);
        json.put("root", entries(root));
        return new Report(lines, json, true);
    }

    /** The tree under {@code dir}, each line starting with {@code indent}. */
    static void lines(PropertyDirectory dir, String indent, List<String> lines) {
        for (Property p : dir.properties()) {
            String key = p.key().isEmpty() ? "\"\"" : printable(p.key());
            String head = indent + key + " ".repeat(Math.max(0, 9 - key.length())) + " " + typeLetter(p.type())
                    + "  ";
            switch (p) {
                case Property.Immediate i -> lines.add(head + immediate(dir, i));
                case Property.Text t -> lines.add(head + "\"" + printable(t.text()) + "\""
                        + (t.dwords() > (t.value().length + 4) / 4 ? "  (" + t.dwords() + " dwords)" : ""));
                case Property.Data d -> lines.add(head + d.dwords() + " dwords: " + HexFormat.ofDelimiter(" ")
                        .formatHex(d.bytes()));
                case Property.Directory d -> {
                    lines.add(head + d.directory().uuid() + known(d.directory().uuid()));
                    lines(d.directory(), indent + "  ", lines);
                }
                case Property.Unknown u -> lines.add(String.format("%stype 0x%02x (unknown), length %d, value"
                        + " 0x%08x", head, u.type(), u.length(), u.value()));
            }
        }
    }

    private static String immediate(PropertyDirectory dir, Property.Immediate i) {
        String hex = Integer.toHexString(i.value());
        String v = "0x" + "0".repeat(8 - hex.length()) + hex + " (" + Integer.toUnsignedString(i.value()) + ")";
        if (i.key().equals("prtcstns")) {
            if (XdlinkService.DIRECTORY_UUID.equals(dir.uuid())) {
                v += " " + XdlinkService.describe(i.value());
            } else if (ThunderboltNet.DIRECTORY_UUID.equals(dir.uuid())) {
                v += " " + tbnetSettings(i.value());
            }
        }
        return v;
    }

    private static String tbnetSettings(int v) {
        List<String> names = new ArrayList<>();
        if ((v & ThunderboltNet.E2E) != 0) {
            names.add("E2E");
        }
        if ((v & ThunderboltNet.MATCH_FRAGS_ID) != 0) {
            names.add("MATCH_FRAGS_ID");
        }
        if ((v & ThunderboltNet.FRAMES_64K) != 0) {
            names.add("64K_FRAMES");
        }
        int rest = v & ~ThunderboltNet.PRTCSTNS;
        if (rest != 0) {
            names.add(String.format("0x%x", rest));
        }
        return names.isEmpty() ? "none" : String.join("|", names);
    }

    private static String known(UUID uuid) {
        if (ThunderboltNet.DIRECTORY_UUID.equals(uuid)) {
            return "  (thunderbolt-net)";
        }
        if (XdlinkService.DIRECTORY_UUID.equals(uuid)) {
            return "  (xdlink)";
        }
        return "";
    }

    static String typeLetter(int type) {
        return type >= 0x21 && type < 0x7f ? String.valueOf((char) type) : "?";
    }

    /**
     * A key or text a peer chose, escaped as everything xdlink echoes is (controls, bidirectional overrides), with
     * '"' escaped too since the text is shown in double quotes.
     */
    static String printable(String s) {
        return Text.printable(s).replace("\"", "\\\"");
    }

    static List<Object> entries(PropertyDirectory dir) {
        List<Object> list = new ArrayList<>();
        for (Property p : dir.properties()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("key", p.key());
            e.put("type", typeLetter(p.type()));
            switch (p) {
                case Property.Immediate i -> e.put("value", Integer.toUnsignedLong(i.value()));
                case Property.Text t -> {
                    e.put("text", t.text());
                    e.put("dwords", t.dwords());
                }
                case Property.Data d -> e.put("data", HexFormat.of().formatHex(d.bytes()));
                case Property.Directory d -> {
                    e.put("uuid", d.directory().uuid().toString());
                    e.put("entries", entries(d.directory()));
                }
                case Property.Unknown u -> {
                    e.put("typeByte", u.type());
                    e.put("length", u.length());
                    e.put("value", Integer.toUnsignedLong(u.value()));
                }
            }
            list.add(e);
        }
        return list;
    }
}
