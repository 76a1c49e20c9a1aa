package io.xdlink.cli.xdomain;

import static org.assertj.core.api.Assertions.assertThat;

import io.xdlink.cli.host.CliRun;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ServiceRegistry;
import io.xdlink.xdomain.service.ThunderboltNet;
import io.xdlink.xdomain.service.XdlinkService;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DecodeCommandTest {
    private static final UUID A = UUID.fromString("497f8780-f186-6a25-ffff-ffffffffffff");
    private static final UUID B = UUID.fromString("d7030000-0070-6f18-a37a-0d4a6350921d");

    private static CliRun decode(String... args) {
        return CliRun.of(new DecodeCommand(new ByteArrayInputStream(new byte[0])), args);
    }

    private static String hex(byte[] wire) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < wire.length; i += 4) {
            sb.append(String.format("0x%02x%02x%02x%02x ", wire[i], wire[i + 1], wire[i + 2], wire[i + 3]));
        }
        return sb.toString().trim();
    }

    private static String words(int[] w) {
        return IntStream.of(w).mapToObj(v -> String.format("%08x", v)).collect(Collectors.joining(" "));
    }

    private static int[] linuxBlock(boolean services) {
        ServiceRegistry r = new ServiceRegistry(HostIdentity.linux("evo-x3"), 5);
        if (services) {
            r.register(ThunderboltNet.KEY, ThunderboltNet.directory());
            r.register(XdlinkService.KEY, XdlinkService.directory(XdlinkService.RAIL_TCP | XdlinkService.E2E));
        }
        return PropertyBlock.format(r.block(15).root());
    }

    @Test
    void wirePacketWithCrcDecodesFieldByField() {
        byte[] wire = XdpCodec.encode(new XdpMessage.LinkStateStatusResponse(XdpHeader.of(1, 2), 0, 3, 1, 5, 0xc));
        CliRun r = decode(hex(wire));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("XDomain LINK_STATE_STATUS_RESPONSE (16), XDOMAIN_RESP, 10 words, CRC 0x")
                .contains(" ok\n")
                .contains("length 7, sequence 2")
                .contains("supported width 0x3 (single+dual), target width 0x1 (single), supported speeds 0x5,"
                        + " target speed 0xc");
    }

    @Test
    void badCrcIsReportedAndExitsOne() {
        byte[] wire = XdpCodec.encode(new XdpMessage.ErrorResponse(XdpHeader.of(1, 2), XdpError.NOT_READY));
        wire[wire.length - 1] ^= 1;
        CliRun r = decode(hex(wire).split(" "));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("BAD (computed").contains("NOT_READY (4)");
    }

    @Test
    void propertiesResponseCarryingAWholeBlockShowsTheTree() {
        int[] block = linuxBlock(false);
        assertThat(block.length).isLessThanOrEqualTo(45);
        byte[] wire = XdpCodec.encode(new XdpMessage.PropertiesResponse(XdpHeader.of(1, 2), A, B, 0, block.length,
                6, block));
        CliRun r = decode(hex(wire));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("dwords 0.." + block.length + " of a " + block.length + "-dword block")
                .contains("the whole block is in this chunk:")
                .contains("    vendorid  t  \"Intel Corp.\"")
                .contains("    deviceid  t  \"evo-x3\"");
        int[] big = linuxBlock(true);
        byte[] chunk = XdpCodec.encode(new XdpMessage.PropertiesResponse(XdpHeader.of(1, 2), A, B, 45, big.length,
                6, java.util.Arrays.copyOfRange(big, 45, big.length)));
        assertThat(decode(hex(chunk)).out()).contains("dwords 45.." + big.length + " of a " + big.length)
                .contains("a chunk: collect every chunk");
    }

    @Test
    void hostileTextPropertiesAndTokensAreEscapedInTextAndJson() {
        io.xdlink.xdomain.property.PropertyDirectory root = io.xdlink.xdomain.property.PropertyDirectory.root(
                java.util.List.of(io.xdlink.xdomain.property.Property.Text.of("devicev",
                        "evil\u202egnp.exe\u2066x\u001b[2J\"q\\")));
        CliRun r = decode(words(PropertyBlock.format(root)));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"evil\\u202egnp.exe\\u2066x\\x1b[2J\\\"q\\\\\"")
                .doesNotContain("\u202e").doesNotContain("\u2066").doesNotContain("\u001b");
        CliRun json = decode("--json", words(PropertyBlock.format(root)));
        assertThat(json.out()).contains("evil\\u202egnp.exe\\u2066x\\u001b[2J")
                .doesNotContain("\u202e").doesNotContain("\u001b");

        CliRun token = decode("12\u202e34");
        assertThat(token.exit()).isEqualTo(2);
        assertThat(token.err()).isEqualTo("xdlink: token 1 '12\\u202e34': '\\u202e' is not a hex digit\n");
        CliRun crc = decode("--crc", "n\u001b[31mo", "0");
        assertThat(crc.err()).contains("\\x1b[31m").doesNotContain("\u001b");
    }

    @Test
    void propertyBlockShowsServicesAndTheirSettings() {
        CliRun r = decode(words(linuxBlock(true)));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("XDomain property block, 81 dwords, root 8 entries\n")
                .contains("  network   D  c66189ca-1cce-4195-bdb8-49592e5f5a4f  (thunderbolt-net)\n"
                        + "    prtcid    v  0x00000001 (1)\n")
                .contains("    prtcstns  v  0x00000007 (7) E2E|MATCH_FRAGS_ID|64K_FRAMES")
                .contains("    prtcstns  v  0x00000005 (5) RAIL_TCP|E2E")
                .contains("  maxhopid  v  0x0000000f (15)");
    }

    @Test
    void propertyBlockFromStdinAsJson() {
        int[] block = linuxBlock(true);
        CliRun r = CliRun.of(new DecodeCommand(new ByteArrayInputStream(words(block)
                .getBytes(StandardCharsets.US_ASCII))), "--json", "-");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"kind\": \"property block\"").contains("\"key\": \"xdlink\"")
                .contains("\"uuid\": \"37e19fd9-b46a-4a6e-a015-5237b40c4808\"").contains("\"text\": \"Intel Corp.\"");
    }

    @Test
    void tracefsLineWithoutCrcAndAServiceProtocolPacket() {
        CliRun r = decode("data=[0x80000000,", "0x00000001,", "0x08000014,", "0x9e588f79,", "0x478a1636,",
                "0x6456c697,", "0xddc820a9,", "0x000003d7,", "0x186f7000,", "0x4a0d7aa3,", "0x1d925063,",
                "0x80877f49,", "0x256a86f1,", "0xffffffff,", "0xffffffff,", "0x00000000,", "0x00000002,",
                "0x00000001,", "0x00000008,", "0x00000000,", "0x00000000,", "0x00000000,", "0x00000000]");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("XDomain packet, protocol (ThunderboltIP, thunderbolt-net), 23 words,"
                        + " no CRC word")
                .contains("route 0x1 (bit 31 set: received from the other domain)")
                .contains("length 20, sequence 1");
    }

    @Test
    void brokenInputIsExplainedNotThrown() {
        int[] words = XdpCodec.encodeWords(new XdpMessage.UuidRequest(XdpHeader.of(1, 2)));
        words[7] = 13;
        CliRun r = decode(hex(ControlFrame.encode(words)));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("problem  type: unknown XDomain discovery message type 13");
        CliRun bad = decode("0x55584401", "0x00000010");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("root length");
        CliRun usage = decode("0xnope");
        assertThat(usage.exit()).isEqualTo(2);
        assertThat(usage.err()).contains("token 1 '0xnope'");
        assertThat(decode("--crc", "maybe", "0").exit()).isEqualTo(2);
    }

    @Test
    void reachableFromMain() {
        CliRun r = CliRun.main("xdomain", "decode", "00000000", "00000001", "10000005", "0ed738b6", "bb40ff42",
                "e290c297", "07ffb2c0", "0000000c");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("XDomain UUID_REQUEST (12), XDOMAIN_REQ, 8 words, no CRC word");
    }

    /** Random and mutated words through both reports: they always produce output and never throw. */
    @Test
    void reportsSurviveAnyWords() {
        String fixed = System.getProperty("xdlink.seed");
        long seed = fixed != null ? Long.decode(fixed) : new SecureRandom().nextLong();
        SplittableRandom r = new SplittableRandom(seed);
        List<int[]> seeds = new ArrayList<>();
        seeds.add(linuxBlock(true));
        seeds.add(ControlFrame.parse(XdpCodec.encode(new XdpMessage.PropertiesResponse(XdpHeader.of(1, 0), A, B, 0,
                linuxBlock(false).length, 1, linuxBlock(false)))).words());
        seeds.add(XdpCodec.encodeWords(new XdpMessage.UuidResponse(XdpHeader.of(1, 0), A, 1)));
        for (int i = 0; i < 100_000; i++) {
            int[] w;
            if (i % 4 == 0) {
                w = new int[1 + r.nextInt(70)];
                for (int k = 0; k < w.length; k++) {
                    w[k] = r.nextInt();
                }
            } else {
                w = seeds.get(r.nextInt(seeds.size())).clone();
                w[r.nextInt(w.length)] = r.nextInt(4) == 0 ? r.nextInt() : w[r.nextInt(w.length)] ^ (1 << r.nextInt(32));
                if (r.nextInt(3) == 0) {
                    w = java.util.Arrays.copyOf(w, 1 + r.nextInt(w.length));
                }
            }
            try {
                Report report = r.nextBoolean() ? PacketReport.of(w, PacketReport.Crc.values()[r.nextInt(3)])
                        : BlockReport.of(w);
                if (report.lines().isEmpty()) {
                    throw new AssertionError("no output for " + java.util.Arrays.toString(w));
                }
            } catch (Throwable t) {
                throw new AssertionError("failed with -Dxdlink.seed=" + seed + " at case " + i + ": " + t, t);
            }
        }
    }
}
