package io.xdlink.cli.doctor;

import io.xdlink.cli.elf.ElfException;
import io.xdlink.cli.elf.ElfFile;
import io.xdlink.cli.elf.ElfReader;
import io.xdlink.cli.elf.ElfSymbol;
import io.xdlink.xdomain.sysfs.Text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Check 5, collective-library plugins: every {@code libnccl-net-*.so} and {@code librccl-net-*.so} on the library
 * path and every library {@code NCCL_NET_PLUGIN} names, with the {@code ncclNetPlugin_vN} tables each exports (read
 * from its dynamic symbol table), against what the installed NCCL or RCCL looks up first. Both libraries look up the
 * same names; a plugin exporting {@code rcclNetPlugin_v7} exports nothing either will find.
 */
public final class CclPluginsCheck implements Check {
    private static final Pattern PLUGIN_FILE = Pattern.compile("lib([nr]ccl)-net(-[^/]*)?\\.so");
    private static final Pattern NET_TABLE = Pattern.compile("ncclNetPlugin_v(\\d{1,3})");
    private static final Pattern COLLNET_TABLE = Pattern.compile("ncclCollNetPlugin_v\\d{1,3}");
    private static final int MAX_ENTRIES = 14;

    @Override
    public String name() {
        return "plugins";
    }

    @Override
    public List<CheckResult> run(Host host) {
        List<CheckResult> out = new ArrayList<>();
        LibraryPath path = LibraryPath.of(host);
        List<CollectiveLibrary> libraries = CollectiveLibrary.installed(host, path, out);
        Map<Path, Candidate> candidates = new LinkedHashMap<>();
        for (Path p : path.findAll(n -> PLUGIN_FILE.matcher(n).matches())) {
            candidates.putIfAbsent(HostFiles.real(p), new Candidate(p, kindOf(p), "on the library path"));
        }
        Optional<String> env = host.env("NCCL_NET_PLUGIN");
        if (env.isPresent()) {
            if (env.get().trim().equalsIgnoreCase("none")) {
                out.add(CheckResult.ok("plugins/env", "NCCL_NET_PLUGIN=none: no external plugin will be loaded"));
            } else {
                String[] entries = env.get().split(",");
                for (int i = 0; i < Math.min(entries.length, MAX_ENTRIES); i++) {
                    String entry = entries[i].trim();
                    if (entry.isEmpty()) {
                        continue;
                    }
                    Optional<Path> p = resolve(host, path, entry);
                    if (p.isEmpty()) {
                        out.add(CheckResult.fail("plugins/env", "NCCL_NET_PLUGIN names " + Text.quote(entry)
                                + ", but " + tried(entry) + " is on the library path: the collective library logs"
                                + " ncclOsDlopen(" + Text.printable(entry) + ") failed and runs on its internal"
                                + " IB/Socket transports", "set NCCL_NET_PLUGIN to the plugin's absolute path"));
                    } else {
                        Candidate c = new Candidate(p.get(), kindOf(p.get()), "named by NCCL_NET_PLUGIN");
                        candidates.merge(HostFiles.real(p.get()), c, (a, b) -> new Candidate(a.file, a.kind,
                                a.how + " and " + b.how));
                    }
                }
            }
        }
        if (candidates.isEmpty()) {
            out.add(CheckResult.ok("plugins", "no libnccl-net-*.so or librccl-net-*.so on the library path"
                    + (env.isEmpty() ? " and NCCL_NET_PLUGIN is unset" : "")
                    + ": the collective library uses its internal transports"));
        }
        for (Candidate c : candidates.values()) {
            out.add(judge(host, c, libraries));
        }
        return out;
    }

    private record Candidate(Path file, String kind, String how) {
    }

    private CheckResult judge(Host host, Candidate c, List<CollectiveLibrary> libraries) {
        String name = host.show(c.file);
        String id = "plugins/" + Text.printable(c.file.getFileName().toString());
        ElfFile elf;
        try {
            elf = ElfReader.read(c.file);
        } catch (ElfException e) {
            return CheckResult.warn(id, name + " (" + c.how + ") cannot be read as a shared library: "
                    + Text.printable(e.getMessage()), "rebuild or reinstall the plugin");
        }
        List<Integer> tables = new ArrayList<>();
        List<String> misspelled = new ArrayList<>();
        List<String> notTables = new ArrayList<>();
        for (ElfSymbol s : elf.exportedSymbols()) {
            Matcher m = NET_TABLE.matcher(s.name());
            if (m.matches()) {
                if (s.type() == ElfSymbol.STT_OBJECT) {
                    tables.add(Integer.parseInt(m.group(1)));
                } else {
                    notTables.add(s.name());
                }
            } else if (looksLikeTable(s.name())) {
                misspelled.add(Text.printable(s.name()));
            }
        }
        tables.sort(Comparator.reverseOrder());
        String exports = tables.isEmpty() ? "no ncclNetPlugin_vN table" : "ncclNetPlugin_" + range(tables);
        if (!notTables.isEmpty()) {
            return CheckResult.fail(id, name + " exports " + String.join(", ", notTables) + " as a function, but the"
                    + " loader reads a table of function pointers at that symbol", "define each ncclNetPlugin_vN as an"
                    + " initialised data object (const struct of function pointers), not a function");
        }
        if (!misspelled.isEmpty() && tables.isEmpty()) {
            return CheckResult.fail(id, name + " exports " + String.join(", ", misspelled) + ", which neither NCCL nor"
                    + " RCCL looks up (both look up ncclNetPlugin_vN): the plugin is never used", "rename the"
                    + " tables to " + String.join(", ", misspelled.stream().map(CclPluginsCheck::corrected).toList()));
        }
        if (tables.isEmpty()) {
            return CheckResult.fail(id, name + " (" + c.how + ") exports no ncclNetPlugin_vN table: the loader says"
                    + " \"External network plugin ... is unsupported\" and falls back to its internal transports",
                    "export the ncclNetPlugin_v6 ... v12 tables with default visibility");
        }
        List<CollectiveLibrary> relevant = libraries.stream()
                .filter(l -> c.kind.isEmpty() || l.kind().equals(c.kind)).toList();
        String misspeltNote = misspelled.isEmpty() ? "" : "; it also exports " + String.join(", ", misspelled)
                + ", which nothing looks up";
        String fix = "export every current table, ncclNetPlugin_v12 down to v6 (shared/spec/ccl-net-abi.md)";
        if (relevant.isEmpty()) {
            String who = c.kind.isEmpty() ? "NCCL or RCCL" : c.kind;
            int best = firstMatch(CollectiveLibrary.NEWEST, tables);
            String seen = name + " (" + c.how + ") exports " + exports + "; no " + who + " is installed here, and the newest"
                    + " loaders ask for v" + CollectiveLibrary.NEWEST.getFirst() + " first" + misspeltNote;
            if (best < 0) {
                return CheckResult.fail(id, seen + ": none of its tables is one they look up", fix);
            }
            return best == CollectiveLibrary.NEWEST.getFirst() && misspelled.isEmpty()
                    ? CheckResult.ok(id, seen)
                    : CheckResult.warn(id, seen + (best < CollectiveLibrary.NEWEST.getFirst()
                            ? ": they would fall back to v" + best : ""), fix);
        }
        Status worst = Status.OK;
        List<String> notes = new ArrayList<>();
        for (CollectiveLibrary lib : relevant) {
            int best = firstMatch(lib.lookups(), tables);
            String libName = lib.kind() + " " + host.show(lib.file());
            if (best < 0) {
                worst = Status.FAIL;
                notes.add(libName + " looks up " + lib.lookupText() + " (" + lib.evidence() + ") and finds none of"
                        + " them: \"External network plugin is unsupported\"");
            } else if (best < lib.first()) {
                worst = worst == Status.FAIL ? worst : Status.WARN;
                notes.add(libName + " asks for v" + lib.first() + " first and falls back to v" + best + " after"
                        + " logging ncclOsDlsym(ncclNetPlugin_v" + lib.first() + ") failed for each newer miss; it"
                        + " breaks when the library drops v" + best);
            } else {
                notes.add(libName + " asks for v" + lib.first() + " first and finds it");
            }
        }
        if (!misspelled.isEmpty() && worst == Status.OK) {
            worst = Status.WARN;
        }
        String seen = name + " (" + c.how + ") exports " + exports + "; " + String.join("; ", notes) + misspeltNote;
        return switch (worst) {
            case OK -> CheckResult.ok(id, seen);
            case WARN -> CheckResult.warn(id, seen, fix);
            case FAIL -> CheckResult.fail(id, seen, fix);
        };
    }

    /** A symbol meant as a plugin table but spelled so no loader finds it ({@code rcclNetPlugin_v7}). */
    static boolean looksLikeTable(String symbol) {
        String s = symbol.toLowerCase(Locale.ROOT).replace("_", "");
        return s.contains("netplugin") && !COLLNET_TABLE.matcher(symbol).matches();
    }

    /** The name a loader looks up, for a misspelled table symbol. */
    static String corrected(String symbol) {
        Matcher m = Pattern.compile("(?i).*v(\\d{1,3})$").matcher(symbol);
        return m.matches() ? "ncclNetPlugin_v" + m.group(1) : "ncclNetPlugin_vN";
    }

    private static int firstMatch(List<Integer> lookups, List<Integer> tables) {
        for (int v : lookups) {
            if (tables.contains(v)) {
                return v;
            }
        }
        return -1;
    }

    /** {@code v6..v8}, {@code v7}, or {@code v6, v8} when not contiguous. */
    static String range(List<Integer> descending) {
        int hi = descending.getFirst();
        int lo = descending.getLast();
        if (hi - lo + 1 == descending.size()) {
            return hi == lo ? "v" + hi : "v" + lo + "..v" + hi;
        }
        return String.join(", ", descending.reversed().stream().map(v -> "v" + v).toList());
    }

    /** NCCL or RCCL by the plugin's file name; empty for a name that says neither (a full path in the variable). */
    private static String kindOf(Path p) {
        Matcher m = PLUGIN_FILE.matcher(p.getFileName().toString());
        return m.matches() ? m.group(1).toUpperCase(Locale.ROOT) : "";
    }

    /** How NCCL 2.30 and RCCL resolve one entry of NCCL_NET_PLUGIN (spec ccl-net-abi.md section 4). */
    private static Optional<Path> resolve(Host host, LibraryPath path, String entry) {
        if (entry.contains("/")) {
            Path p = host.path(entry.startsWith("/") ? entry : "/" + entry);
            return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
        }
        Optional<Path> verbatim = path.find(entry);
        if (verbatim.isPresent() || (entry.startsWith("lib") && entry.endsWith(".so"))) {
            return verbatim;
        }
        return path.find("libnccl-net-" + entry + ".so").or(() -> path.find("librccl-net-" + entry + ".so"));
    }

    private static String tried(String entry) {
        String e = Text.printable(entry);
        if (entry.contains("/") || (entry.startsWith("lib") && entry.endsWith(".so"))) {
            return "no file " + e;
        }
        return "neither " + e + " nor libnccl-net-" + e + ".so nor librccl-net-" + e + ".so";
    }
}
