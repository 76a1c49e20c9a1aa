package io.xdlink.params.modprobe;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds and reads the modprobe.d files of a host under a root directory (so tests can use an in-memory file system
 * and {@code xdlink doctor --root} can inspect a mounted image).
 *
 * <p>The rule, from kmod (libkmod.c {@code default_config_paths}, libkmod-config.c {@code conf_files_insert_sorted},
 * and modprobe.d(5) since kmod 33): the directories below are searched in this order, highest precedence first. A
 * file name found in one directory hides the same name in every later one ("Ignoring duplicate config file"). The
 * files that remain are then read in lexicographic order of their names, whatever directory each came from, so a
 * later name's settings come after an earlier name's. Only names ending in {@code .conf} (and, for old
 * configurations, {@code .alias}) are read; names starting with '.' and sub-directories are skipped. A file that is
 * a link to /dev/null masks the name without content.
 */
public final class ModprobeSearchPath {
    /** kmod's search path, highest precedence first. */
    public static final List<String> DIRECTORIES = List.of(
            "/etc/modprobe.d",
            "/run/modprobe.d",
            "/usr/local/lib/modprobe.d",
            "/usr/lib/modprobe.d",
            "/lib/modprobe.d");

    /** Entries looked at per directory; a real one holds tens. */
    public static final int MAX_ENTRIES = 10_000;

    private ModprobeSearchPath() {
    }

    /** Reads every file modprobe would read under {@code root}; missing directories are normal and skipped. */
    public static ModprobeScan scan(Path root) {
        Map<String, Path> chosen = new TreeMap<>();
        List<ModprobeScan.Shadowed> shadowed = new ArrayList<>();
        List<ModprobeProblem> problems = new ArrayList<>();
        for (String dir : DIRECTORIES) {
            Path d = root.resolve(dir.substring(1));
            if (!Files.isDirectory(d)) {
                continue;
            }
            int seen = 0;
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
                for (Path entry : entries) {
                    if (++seen > MAX_ENTRIES) {
                        problems.add(new ModprobeProblem(d.toString(), 0, Severity.ERROR,
                                "more than " + MAX_ENTRIES + " entries; the rest were not read"));
                        break;
                    }
                    String name = entry.getFileName().toString();
                    if (name.startsWith(".") || !(name.endsWith(".conf") || name.endsWith(".alias"))) {
                        continue;
                    }
                    if (Files.isDirectory(entry)) {
                        problems.add(new ModprobeProblem(entry.toString(), 0, Severity.WARNING,
                                "a directory; modprobe does not read directories inside " + dir));
                        continue;
                    }
                    Path winner = chosen.get(name);
                    if (winner != null) {
                        // /lib is often a link to /usr/lib: the same file seen twice hides nothing.
                        if (!sameFile(entry, winner)) {
                            shadowed.add(new ModprobeScan.Shadowed(entry.toString(), winner.toString()));
                        }
                    } else {
                        chosen.put(name, entry);
                    }
                }
            } catch (IOException | RuntimeException e) {
                problems.add(new ModprobeProblem(d.toString(), 0, Severity.ERROR, "cannot list: " + reason(e)));
            }
        }
        // TreeMap orders by String.compareTo, which for the ASCII names of configuration files is strcmp's order.
        List<ModprobeFile> files = new ArrayList<>();
        for (Path p : chosen.values()) {
            files.add(readOne(p, problems));
        }
        return new ModprobeScan(root.toString(), files, shadowed, problems);
    }

    private static ModprobeFile readOne(Path p, List<ModprobeProblem> problems) {
        try {
            if (Files.isSymbolicLink(p) && Files.readSymbolicLink(p).toString().equals("/dev/null")) {
                return new ModprobeFile(p.toString(), List.of(), List.of());
            }
            // A FIFO or device here would block or never end; modprobe.d holds plain files.
            if (!Files.isRegularFile(p)) {
                problems.add(new ModprobeProblem(p.toString(), 0, Severity.ERROR, "not a regular file"));
                return new ModprobeFile(p.toString(), List.of(), List.of());
            }
            return ModprobeParser.read(p);
        } catch (IOException | RuntimeException e) {
            problems.add(new ModprobeProblem(p.toString(), 0, Severity.ERROR, "cannot read: " + reason(e)));
            return new ModprobeFile(p.toString(), List.of(), List.of());
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    static String reason(Exception e) {
        String m = e.getMessage();
        String kind = e.getClass().getSimpleName().replace("Exception", "");
        return SafeText.clip(m == null ? kind : kind + " " + m);
    }
}
