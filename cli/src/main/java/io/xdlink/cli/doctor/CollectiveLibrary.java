package io.xdlink.cli.doctor;

import io.xdlink.cli.elf.ElfException;
import io.xdlink.cli.elf.ElfFile;
import io.xdlink.cli.elf.ElfReader;
import io.xdlink.cli.elf.ElfSection;
import io.xdlink.cli.elf.ElfStrings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.xdlink.xdomain.sysfs.Text;
import java.util.Locale;

/**
 * An installed collective library (NCCL or RCCL) and the plugin table symbols its loader looks up, newest first.
 *
 * <p>The lookups are read from the library itself: its loader names each symbol as a string literal
 * ({@code "ncclNetPlugin_v12"}) in {@code .rodata}. RCCL's file name carries the ROCm release, not its own, so this is
 * the only reliable source there. When a library builds the names at run time instead, NCCL's version in its file
 * name is looked up in the table of which release tries which symbols (shared/spec/ccl-net-abi.md section 1).
 *
 * @param kind     {@code NCCL} or {@code RCCL}
 * @param file     the library file
 * @param lookups  the ncclNetPlugin_vN versions it tries, in the order it tries them (newest first)
 * @param evidence how the lookups were found, in words
 */
public record CollectiveLibrary(String kind, Path file, List<Integer> lookups, String evidence) {
    private static final Pattern NCCL_FILE = Pattern.compile("libnccl\\.so\\.(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final Pattern SYMBOL = Pattern.compile("ncclNetPlugin_v(\\d{1,3})");

    public CollectiveLibrary {
        lookups = List.copyOf(lookups);
    }

    /** The version it asks for first. */
    public int first() {
        return lookups.getFirst();
    }

    /** {@code v12, v11, ... v6} */
    public String lookupText() {
        return String.join(", ", lookups.stream().map(v -> "v" + v).toList());
    }

    /**
     * NCCL releases and the symbols their loaders try, in order (found with {@code git grep} on each tag).
     *
     * @param fromMinor first 2.x release of the range
     * @param toMinor   last 2.x release of the range
     * @param lookups   versions tried, in order
     */
    record NcclRange(int fromMinor, int toMinor, List<Integer> lookups) {
    }

    static final List<NcclRange> NCCL_RELEASES = List.of(
            new NcclRange(18, 18, List.of(6, 5, 4)),
            new NcclRange(19, 19, List.of(7, 6, 5)),
            new NcclRange(20, 23, List.of(8, 7, 6, 5)),
            new NcclRange(24, 25, List.of(9, 8, 7, 6, 5)),
            new NcclRange(26, 27, List.of(10, 9, 8, 7, 6)),
            new NcclRange(28, 29, List.of(11, 10, 9, 8, 7, 6)),
            new NcclRange(30, 30, List.of(12, 11, 10, 9, 8, 7, 6)));

    /** What the newest loaders known (NCCL 2.30, the newest RCCL) look up: used when no library is installed. */
    public static final List<Integer> NEWEST = NCCL_RELEASES.getLast().lookups();

    /** Every NCCL and RCCL library on the host's library path. */
    public static List<CollectiveLibrary> installed(Host host, LibraryPath path, List<CheckResult> problems) {
        List<CollectiveLibrary> out = new ArrayList<>();
        for (Path p : path.findAll(n -> n.matches("lib[nr]ccl\\.so(\\.\\d+)*"))) {
            String kind = p.getFileName().toString().startsWith("librccl") ? "RCCL" : "NCCL";
            try {
                of(kind, p).ifPresent(out::add);
            } catch (ElfException e) {
                problems.add(CheckResult.warn("plugins/" + kind.toLowerCase(Locale.ROOT),
                        "cannot read " + host.show(p) + ": " + Text.printable(e.getMessage()),
                        "reinstall " + kind));
            }
        }
        return out;
    }

    static Optional<CollectiveLibrary> of(String kind, Path file) throws ElfException {
        ElfFile elf = ElfReader.read(file);
        List<Integer> found = new ArrayList<>();
        for (ElfSection s : elf.sections()) {
            if (!s.name().equals(".rodata")) {
                continue;
            }
            for (String str : ElfStrings.find(file, s, "ncclNetPlugin_v")) {
                Matcher m = SYMBOL.matcher(str);
                if (m.matches()) {
                    found.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        if (!found.isEmpty()) {
            found.sort(Comparator.reverseOrder());
            return Optional.of(new CollectiveLibrary(kind, file, found.stream().distinct().toList(),
                    "the symbol names in its .rodata"));
        }
        Matcher m = NCCL_FILE.matcher(HostFiles.real(file).getFileName().toString());
        if (kind.equals("NCCL") && m.matches() && m.group(1).equals("2")) {
            int minor = Integer.parseInt(m.group(2));
            for (NcclRange r : NCCL_RELEASES) {
                if (minor >= r.fromMinor() && minor <= r.toMinor()) {
                    return Optional.of(new CollectiveLibrary(kind, file, r.lookups(), "NCCL 2." + minor + "."
                            + m.group(3) + "'s loader"));
                }
            }
            if (minor > NCCL_RELEASES.getLast().toMinor()) {
                return Optional.of(new CollectiveLibrary(kind, file, NEWEST, "NCCL 2." + minor + ", newer than"
                        + " 2.30 (assumed to look up what 2.30 does)"));
            }
        }
        return Optional.empty();
    }
}
