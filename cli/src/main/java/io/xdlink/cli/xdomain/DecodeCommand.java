package io.xdlink.cli.xdomain;

import io.xdlink.cli.UsageException;
import io.xdlink.cli.json.Json;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.sysfs.Text;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code xdlink xdomain decode [--as auto|packet|block] [--crc auto|yes|no] [--json] HEX...}. */
@Command(name = "decode", mixinStandardHelpOptions = true,
        description = {"Decode an XDomain control packet or property block given as hex 32-bit words.",
                "Words may carry 0x, be separated by spaces or commas, come in one argument or many, or from"
                        + " stdin with '-'; a tracefs line (data=[0x..., ...]) pastes as it is.",
                "A packet is its words followed by the CRC word, as on the wire; words whose length field covers"
                        + " all of them (tracefs) are taken as a packet without CRC.",
                "Exit status: 0 decoded, 1 the input breaks a rule (bad CRC, bad field), 2 bad usage."},
        sortOptions = false)
public final class DecodeCommand implements Callable<Integer> {
    /** Largest stdin read: far more than 1024 words written out in any spacing. */
    private static final int MAX_STDIN = 1 << 20;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "HEX", arity = "1..*", description = "Words in hex, or '-' to read them from stdin.")
    List<String> hex;

    @Option(names = "--as", paramLabel = "KIND", defaultValue = "auto",
            description = "What the words are: auto (a block starts with 0x55584401), packet, block.")
    String as;

    @Option(names = "--crc", paramLabel = "MODE", defaultValue = "auto",
            description = "For packets, whether the last word is the CRC: auto, yes, no.")
    String crc;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    private final InputStream stdin;

    public DecodeCommand() {
        this(System.in);
    }

    /** With another stdin, for tests. */
    public DecodeCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public Integer call() throws IOException {
        PacketReport.Crc crcMode = switch (crc) {
            case "auto" -> PacketReport.Crc.AUTO;
            case "yes" -> PacketReport.Crc.YES;
            case "no" -> PacketReport.Crc.NO;
            default -> throw new UsageException("--crc must be auto, yes or no, not " + Text.quote(crc));
        };
        if (!List.of("auto", "packet", "block").contains(as)) {
            throw new UsageException("--as must be auto, packet or block, not " + Text.quote(as));
        }
        int[] words = HexWords.parse(input());
        boolean block = as.equals("block") || (as.equals("auto") && words[0] == PropertyBlock.MAGIC);
        Report report = block ? BlockReport.of(words) : PacketReport.of(words, crcMode);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.format(report.json()));
        } else {
            report.lines().forEach(out::println);
        }
        out.flush();
        return report.valid() ? 0 : 1;
    }

    private String input() throws IOException {
        if (hex.size() == 1 && hex.getFirst().equals("-")) {
            byte[] bytes = stdin.readNBytes(MAX_STDIN + 1);
            if (bytes.length > MAX_STDIN) {
                throw new UsageException("stdin holds more than " + MAX_STDIN + " bytes; a packet or block is"
                        + " far smaller");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (hex.contains("-")) {
            throw new UsageException("'-' (stdin) must be the only argument");
        }
        return String.join(" ", hex);
    }
}
