package io.xdlink.ccl.abi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The layout the C compiler gives the structs a header declares, on the ABI the plugin is built for (x86-64 and
 * aarch64 Linux, LP64: every type aligned to its size, pointers 8 bytes): each member's offset and the struct's
 * size. Enough for the plain structs ccl_bridge.h shares with Java: fixed-width integers, {@code _Atomic} ones,
 * pointers, function pointers, and arrays whose length is a literal or a constant the header declares.
 *
 * <p>Anything else in such a struct (an unknown type, a bit field, a nested struct, an array of unknown length) is
 * refused with an error naming the source, the struct and the member, as is a struct never closed.
 */
final class CStructLayouts {
    /** A struct: its members' offsets, in declaration order, and its size. */
    record Layout(String name, Map<String, Long> offsets, long size) {
    }

    private static final Map<String, Integer> SIZES = Map.ofEntries(
            Map.entry("char", 1), Map.entry("int8_t", 1), Map.entry("uint8_t", 1),
            Map.entry("short", 2), Map.entry("int16_t", 2), Map.entry("uint16_t", 2),
            Map.entry("int", 4), Map.entry("unsigned", 4), Map.entry("int32_t", 4), Map.entry("uint32_t", 4),
            Map.entry("float", 4), Map.entry("long", 8), Map.entry("int64_t", 8), Map.entry("uint64_t", 8),
            Map.entry("size_t", 8), Map.entry("uintptr_t", 8), Map.entry("double", 8));
    private static final Pattern STRUCT = Pattern.compile("\\bstruct\\s*([A-Za-z_]\\w*)?\\s*\\{");
    private static final Pattern TYPEDEF_NAME = Pattern.compile("^\\s*([A-Za-z_]\\w*)\\s*;");
    private static final Pattern FUNCTION_POINTER = Pattern.compile(
            "^[\\w\\s*]+\\(\\s*\\*\\s*([A-Za-z_]\\w*)\\s*\\)\\s*\\(.*\\)$", Pattern.DOTALL);
    private static final Pattern MEMBER = Pattern.compile("^([A-Za-z_][\\w\\s]*?)\\s*(\\*+)?\\s*([A-Za-z_]\\w*)\\s*"
            + "(?:\\[\\s*([^\\]]*)\\s*\\])?$", Pattern.DOTALL);
    private static final int MAX_ARRAY = 1 << 20;

    private CStructLayouts() {
    }

    /**
     * The layouts of the structs in {@code text}, by name (a typedef's name, else the struct's tag).
     *
     * @param constants the header's constants, for array lengths
     * @throws IllegalArgumentException naming the source, the line, the struct and what is wrong
     */
    static Map<String, Layout> parse(String source, String text, Map<String, CHeaderConstants.Constant> constants) {
        String code = CHeaderConstants.withoutComments(source, text);
        Map<String, Layout> out = new LinkedHashMap<>();
        Matcher m = STRUCT.matcher(code);
        int from = 0;
        while (m.find(from)) {
            int open = m.end();
            int close = code.indexOf('}', open);
            int nested = code.indexOf('{', open);
            if (close < 0) {
                throw new IllegalArgumentException(source + " line " + CHeaderConstants.lineOf(code, m.start())
                        + ": a struct that is never closed");
            }
            Matcher typedef = TYPEDEF_NAME.matcher(code.substring(close + 1));
            String name = typedef.lookingAt() && code.substring(0, m.start()).stripTrailing().endsWith("typedef")
                    ? typedef.group(1) : m.group(1);
            String where = source + " line " + CHeaderConstants.lineOf(code, m.start()) + ": struct "
                    + (name == null ? "(unnamed)" : name);
            if (nested >= 0 && nested < close) {
                throw new IllegalArgumentException(where + ": a nested struct or union is not read here");
            }
            if (name != null) {
                Layout layout = layout(where, name, code.substring(open, close), constants);
                if (out.putIfAbsent(name, layout) != null) {
                    throw new IllegalArgumentException(where + ": declared again");
                }
            }
            from = close + 1;
        }
        return Collections.unmodifiableMap(out);
    }

    private static Layout layout(String where, String name, String body,
                                 Map<String, CHeaderConstants.Constant> constants) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        long offset = 0;
        long align = 1;
        String[] members = body.split(";", -1);
        if (!members[members.length - 1].isBlank()) {
            throw new IllegalArgumentException(where + ": '" + members[members.length - 1].strip()
                    + "' does not end with ';'");
        }
        for (int i = 0; i < members.length - 1; i++) {
            String decl = members[i].replaceAll("\\b(_Atomic|const|volatile|signed)\\b", " ").strip();
            String member;
            long size;
            long count = 1;
            Matcher fp = FUNCTION_POINTER.matcher(decl);
            Matcher plain = MEMBER.matcher(decl);
            if (fp.matches()) {
                member = fp.group(1);
                size = 8;
            } else if (plain.matches()) {
                member = plain.group(3);
                String type = plain.group(1).strip().replaceAll("\\s+", " ");
                if (plain.group(2) != null) {
                    size = 8;
                } else if (SIZES.containsKey(type)) {
                    size = SIZES.get(type);
                } else if (type.equals("unsigned int") || type.equals("long long") || type.equals("unsigned long")
                        || type.equals("unsigned long long")) {
                    size = type.equals("unsigned int") ? 4 : 8;
                } else {
                    throw new IllegalArgumentException(where + ": member " + member + ": type '" + type
                            + "' is not one read here");
                }
                if (plain.group(4) != null) {
                    count = length(where, member, plain.group(4).strip(), constants);
                }
            } else {
                throw new IllegalArgumentException(where + ": '" + decl + "' is not a member read here");
            }
            offset = (offset + size - 1) / size * size;
            if (offsets.putIfAbsent(member, offset) != null) {
                throw new IllegalArgumentException(where + ": member " + member + " declared twice");
            }
            offset += size * count;
            align = Math.max(align, size);
        }
        if (offsets.isEmpty()) {
            throw new IllegalArgumentException(where + ": no members");
        }
        return new Layout(name, Collections.unmodifiableMap(offsets), (offset + align - 1) / align * align);
    }

    private static long length(String where, String member, String text,
                               Map<String, CHeaderConstants.Constant> constants) {
        long n;
        if (text.matches("[0-9]{1,7}")) {
            n = Long.parseLong(text);
        } else if (constants.containsKey(text)) {
            n = constants.get(text).value();
        } else {
            throw new IllegalArgumentException(where + ": member " + member + ": array length '" + text
                    + "' is neither a literal nor a constant the header declares");
        }
        if (n < 1 || n > MAX_ARRAY) {
            throw new IllegalArgumentException(where + ": member " + member + ": array length " + n);
        }
        return n;
    }
}
