package io.xdlink.cli.xdomain;

import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.PacketFormatException;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import io.xdlink.xdomain.packet.XdpType;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.property.PropertyFormatException;
import io.xdlink.xdomain.service.ThunderboltNet;
import io.xdlink.xdomain.service.XdlinkService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Decodes one control packet word by word: each line shows the word indices, the words in hex, the field's name
 * and what it means, so a reader can hold the output next to a trace.
 */
final class PacketReport {
    /** Whether the last word is the CRC. */
    enum Crc { AUTO, YES, NO }

    private final List<String> lines = new ArrayList<>();
    private final Map<String, Object> json = new LinkedHashMap<>();
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final int[] words;
    private boolean valid = true;

    private PacketReport(int[] words) {
        this.words = words;
    }

    static Report of(int[] input, Crc crc) {
        boolean hasCrc = switch (crc) {
            case YES -> true;
            case NO -> false;
            // tracefs prints packets without their CRC: then the length field covers every word
            case AUTO -> !(input.length >= 3 && (input[2] & 0x3F) == input.length - 3);
        };
        int[] words = hasCrc ? Arrays.copyOf(input, Math.max(0, input.length - 1)) : input;
        PacketReport r = new PacketReport(words);
        r.json.put("kind", "packet");
        r.json.put("words", words.length);
        String crcText;
        if (hasCrc && input.length >= 2) {
            int received = input[input.length - 1];
            int computed = ControlFrame.crc(words);
            boolean ok = received == computed;
            crcText = ok ? String.format("CRC 0x%08x ok", received)
                    : String.format("CRC 0x%08x BAD (computed 0x%08x)", received, computed);
            r.valid = ok;
            r.json.put("crc", map("received", hex(received), "computed", hex(computed), "ok", ok));
        } else if (hasCrc) {
            crcText = "no CRC word";
            r.json.put("crc", null);
        } else {
            crcText = "no CRC word (the length field covers every word, as tracefs prints packets)";
            r.json.put("crc", null);
        }
        r.decode(crcText);
        r.json.put("fields", r.fields);
        r.json.put("valid", r.valid);
        return new Report(r.lines, r.json, r.valid);
    }

    private void decode(String crcText) {
        XdomainPacket packet;
        try {
            if (words.length > ControlFrame.MAX_PACKET_WORDS) {
                throw new PacketFormatException("size", words.length + " words exceed "
                        + ControlFrame.MAX_PACKET_WORDS);
            }
            packet = XdomainPacket.parse(words);
        } catch (PacketFormatException e) {
            lines.add("Not an XDomain packet, " + words.length + " words, " + crcText);
            problem(e.field(), e.getMessage());
            raw(0);
            return;
        }
        UUID protocol = packet.protocol();
        boolean xdp = protocol.equals(XdpCodec.XDP_UUID);
        XdpMessage message = null;
        String problem = null;
        String problemField = null;
        if (xdp) {
            try {
                message = XdpCodec.decode(packet, false);
            } catch (PacketFormatException e) {
                problem = e.getMessage();
                problemField = e.field();
            }
        }
        String title = xdp && message != null
                ? "XDomain " + message.type() + " (" + message.type().value() + "), " + message.pdf()
                : "XDomain packet, protocol " + protocolName(protocol);
        lines.add(title + ", " + words.length + " words, " + crcText);
        json.put("protocol", protocol.toString());
        json.put("protocolName", protocolName(protocol));
        header(packet);
        if (problem != null) {
            problem(problemField, problem);
        }
        if (message == null) {
            if (xdp) {
                int type = words[7];
                field(7, 7, "type", XdpType.of(type).map(t -> type + " " + t).orElse(type + " (unknown)"));
                fields.put("type", Integer.toUnsignedLong(type));
                raw(8);
            } else {
                raw(7);
            }
            return;
        }
        json.put("type", message.type().value());
        json.put("typeName", message.type().name());
        json.put("pdf", message.pdf().name());
        field(7, 7, "type", message.type().value() + " " + message.type());
        body(message);
    }

    private void header(XdomainPacket p) {
        String route = String.format("route 0x%x", p.header().route());
        if (p.header().inbound()) {
            route += " (bit 31 set: received from the other domain)";
        }
        field(0, 0, "route_hi", route);
        field(1, 1, "route_lo", "");
        field(2, 2, "length_sn", "length " + p.length() + ", sequence " + p.header().sequence());
        field(3, 6, "protocol", p.protocol() + " " + protocolName(p.protocol()));
        json.put("route", p.header().route());
        json.put("inbound", p.header().inbound());
        json.put("length", p.length());
        json.put("sequence", p.header().sequence());
    }

    private void body(XdpMessage m) {
        switch (m) {
            case UuidResponse r -> {
                uuid(8, "src_uuid", r.sourceUuid());
                field(12, 13, "src_route", String.format("source route 0x%x", r.sourceRoute()));
                fields.put("sourceRoute", r.sourceRoute());
            }
            case PropertiesRequest r -> {
                uuid(8, "src_uuid", r.sourceUuid());
                uuid(12, "dst_uuid", r.destinationUuid());
                field(16, 16, "offset", "offset " + r.offset() + " dwords");
                fields.put("offset", r.offset());
            }
            case PropertiesResponse r -> properties(r);
            case XdpMessage.PropertiesChangedRequest r -> uuid(8, "src_uuid", r.sourceUuid());
            case ErrorResponse r -> {
                field(8, 8, "error", XdpError.describe(r.error()));
                fields.put("error", Integer.toUnsignedLong(r.error()));
                fields.put("errorName", r.known().map(Enum::name).orElse(null));
            }
            case LinkStateStatusResponse r -> {
                field(8, 8, "status", Integer.toUnsignedString(r.status()));
                field(9, 9, "slw tlw sls tls", String.format("supported width 0x%x (%s), target width 0x%x (%s),"
                        + " supported speeds 0x%x, target speed 0x%x", r.slw(), supported(r.slw()), r.tlw(),
                        target(r.tlw()), r.sls(), r.tls()));
                fields.putAll(map("status", Integer.toUnsignedLong(r.status()), "slw", r.slw(), "tlw", r.tlw(),
                        "sls", r.sls(), "tls", r.tls()));
            }
            case LinkStateChangeRequest r -> {
                field(8, 8, "tlw tls", String.format("target width 0x%x (%s), target speed 0x%x", r.tlw(),
                        target(r.tlw()), r.tls()));
                fields.putAll(map("tlw", r.tlw(), "tls", r.tls()));
            }
            case LinkStateChangeResponse r -> {
                field(8, 8, "status", Integer.toUnsignedString(r.status()));
                fields.put("status", Integer.toUnsignedLong(r.status()));
            }
            case XdpMessage.PropertiesChangedResponse r -> field(8, 8, "reserved", "");
            case XdpMessage.UuidRequest r -> { }
            case XdpMessage.UuidRequestOld r -> { }
            case XdpMessage.LinkStateStatusRequest r -> { }
        }
    }

    private void properties(PropertiesResponse r) {
        uuid(8, "src_uuid", r.sourceUuid());
        uuid(12, "dst_uuid", r.destinationUuid());
        int end = r.offset() + r.dataDwords();
        field(16, 16, "offset data_length", "dwords " + r.offset() + ".." + end + " of a " + r.dataLength()
                + "-dword block");
        field(17, 17, "generation", Integer.toUnsignedString(r.generation()));
        fields.putAll(map("offset", r.offset(), "dataLength", r.dataLength(), "generation",
                Integer.toUnsignedLong(r.generation()), "dataDwords", r.dataDwords()));
        for (int at = 18; at < words.length; at += 4) {
            field(at, Math.min(at + 3, words.length - 1), at == 18 ? "data" : "", "");
        }
        if (r.offset() == 0 && r.dataDwords() == r.dataLength() && r.dataLength() > 0) {
            try {
                PropertyDirectory root = PropertyBlock.parse(r.data());
                lines.add("  the whole block is in this chunk:");
                BlockReport.lines(root, "    ", lines);
                json.put("block", BlockReport.entries(root));
            } catch (PropertyFormatException e) {
                lines.add("  the whole block is in this chunk, but it is not valid: " + e.getMessage());
                json.put("block", map("problem", e.getMessage(), "field", e.field()));
            }
        } else if (r.dataDwords() > 0) {
            lines.add("  a chunk: collect every chunk's data in offset order and decode it with --as block");
        }
    }

    private void uuid(int at, String name, UUID uuid) {
        field(at, at + 3, name, uuid.toString());
        fields.put(name, uuid.toString());
    }

    private void raw(int from) {
        for (int at = from; at < words.length; at += 4) {
            field(at, Math.min(at + 3, words.length - 1), at == from ? "payload" : "", "");
        }
    }

    private void problem(String field, String message) {
        valid = false;
        lines.add("  problem  " + message);
        json.put("problem", map("field", field, "message", message));
    }

    private void field(int from, int to, String name, String meaning) {
        if (from >= words.length) {
            return;
        }
        to = Math.min(to, words.length - 1);
        StringBuilder line = new StringBuilder(96).append("  ");
        pad(line, from == to ? "[" + from + "]" : "[" + from + "-" + to + "]", 9);
        int start = line.length();
        for (int i = from; i <= to; i++) {
            if (i > from) {
                line.append(' ');
            }
            hex8(line, words[i]);
        }
        pad(line, "", 36 - (line.length() - start));
        pad(line, name, 19);
        line.append(meaning);
        lines.add(line.toString().stripTrailing());
    }

    private static void pad(StringBuilder sb, String s, int width) {
        sb.append(s);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
    }

    private static void hex8(StringBuilder sb, int v) {
        String h = Integer.toHexString(v);
        for (int i = h.length(); i < 8; i++) {
            sb.append('0');
        }
        sb.append(h);
    }

    static String protocolName(UUID uuid) {
        if (uuid.equals(XdpCodec.XDP_UUID)) {
            return "(XDomain discovery)";
        }
        if (uuid.equals(ThunderboltNet.PROTOCOL_UUID)) {
            return "(ThunderboltIP, thunderbolt-net)";
        }
        if (uuid.equals(XdlinkService.PROTOCOL_UUID)) {
            return "(xdlink)";
        }
        return "(unknown protocol)";
    }

    private static String supported(int slw) {
        List<String> w = new ArrayList<>();
        if ((slw & 0x1) != 0) {
            w.add("single");
        }
        if ((slw & 0x2) != 0) {
            w.add("dual");
        }
        return w.isEmpty() ? "none" : String.join("+", w);
    }

    private static String target(int tlw) {
        return switch (tlw) {
            case 0x1 -> "single";
            case 0x3 -> "dual";
            default -> "unknown";
        };
    }

    private static String hex(int v) {
        return String.format("0x%08x", v);
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
