package io.xdlink.cli.doctor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.HashSet;

/**
 * The directories the dynamic loader searches, as this host configures them: {@code LD_LIBRARY_PATH}, then
 * {@code /etc/ld.so.conf} with its {@code include} lines (what {@code ldconfig} puts in the cache the loader reads
 * next), then the default directories. On Debian and Ubuntu the defaults begin with the multiarch directories
 * ({@code /lib/x86_64-linux-gnu}, {@code /usr/lib/x86_64-linux-gnu}, and the aarch64 ones), where their packages put
 * every library, and their loader searches them even when no {@code ld.so.conf} names them. It is where a collective
 * library finds a plugin named without a path, and where libibverbs falls back to for providers.
 */
public final class LibraryPath {
    /** Multiarch directories of the architectures xdlink's users run (x86_64 and aarch64), then the classic ones. */
    static final List<String> DEFAULTS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib", "/lib64", "/usr/lib64");
    private static final int MAX_DIRS = 512;
    private static final int MAX_INCLUDE_DEPTH = 4;
    private static final int MAX_FILES_PER_DIR = 50_000;

    private final Host host;
    private final List<String> dirs;

    private LibraryPath(Host host, List<String> dirs) {
        this.host = host;
        this.dirs = List.copyOf(dirs);
    }

    /** The search path of the host. */
    public static LibraryPath of(Host host) {
        Set<String> dirs = new LinkedHashSet<>();
        host.env("LD_LIBRARY_PATH").ifPresent(v -> {
            for (String d : v.split(":")) {
                if (d.startsWith("/")) {
                    dirs.add(d);
                }
            }
        });
        readConf(host, "/etc/ld.so.conf", dirs, new HashSet<>(), 0);
        dirs.addAll(DEFAULTS);
        List<String> bounded = new ArrayList<>(dirs);
        return new LibraryPath(host, bounded.size() > MAX_DIRS ? bounded.subList(0, MAX_DIRS) : bounded);
    }

    /** The directories, as the host names them, in search order. */
    public List<String> dirs() {
        return dirs;
    }

    /** The first regular file of this name in the search order. */
    public Optional<Path> find(String name) {
        if (name.isEmpty() || name.contains("/")) {
            return Optional.empty();
        }
        for (String d : dirs) {
            Path p = host.path(d).resolve(name);
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Every regular file whose name matches, in search order, each real file once. */
    public List<Path> findAll(Predicate<String> name) {
        List<Path> out = new ArrayList<>();
        Set<Path> seen = new LinkedHashSet<>();
        for (String d : dirs) {
            for (Path p : HostFiles.list(host.path(d), MAX_FILES_PER_DIR)) {
                Path fn = p.getFileName();
                if (fn != null && name.test(fn.toString()) && Files.isRegularFile(p) && seen.add(HostFiles.real(p))) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Reads one configuration file; each file at most once, so includes that include each other end. */
    private static void readConf(Host host, String file, Set<String> dirs, Set<String> visited, int depth) {
        if (depth > MAX_INCLUDE_DEPTH || dirs.size() >= MAX_DIRS || visited.size() >= MAX_DIRS
                || !visited.add(file)) {
            return;
        }
        Optional<String> text = HostFiles.text(host.path(file));
        if (text.isEmpty()) {
            return;
        }
        for (String raw : text.get().split("\n")) {
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("include ") || line.startsWith("include\t")) {
                String pattern = line.substring("include".length()).trim();
                if (!pattern.startsWith("/")) {
                    pattern = "/etc/" + pattern;
                }
                for (String inc : expand(host, pattern)) {
                    readConf(host, inc, dirs, visited, depth + 1);
                }
            } else if (line.startsWith("/")) {
                for (String d : line.split("[\\s:,]+")) {
                    if (d.startsWith("/") && dirs.size() < MAX_DIRS) {
                        dirs.add(d);
                    }
                }
            }
        }
    }

    /** An include pattern with a {@code *} in its last part, expanded in sorted order, as glob(3) would. */
    private static List<String> expand(Host host, String pattern) {
        int slash = pattern.lastIndexOf('/');
        String dir = pattern.substring(0, Math.max(slash, 1));
        String glob = pattern.substring(slash + 1);
        if (!glob.contains("*") && !glob.contains("?")) {
            return List.of(pattern);
        }
        String regex = "\\Q" + glob.replace("*", "\\E.*\\Q").replace("?", "\\E.\\Q") + "\\E";
        List<String> out = new ArrayList<>();
        for (Path p : HostFiles.list(host.path(dir), 1000)) {
            Path fn = p.getFileName();
            if (fn != null && fn.toString().matches(regex)) {
                out.add(dir + "/" + fn);
            }
        }
        return out;
    }
}
