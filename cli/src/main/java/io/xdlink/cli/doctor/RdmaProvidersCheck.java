package io.xdlink.cli.doctor;

import io.xdlink.cli.elf.ElfException;
import io.xdlink.cli.elf.ElfFile;
import io.xdlink.cli.elf.ElfReader;
import io.xdlink.xdomain.sysfs.Text;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Set;

/**
 * Check 4, rdma-core providers. libibverbs loads a provider only when a file in {@code /etc/libibverbs.d} names it
 * ({@code driver <name>}), and then only {@code lib<name>-rdmav<PABI>.so} for the provider ABI it was built with,
 * which is the N of its {@code IBVERBS_PRIVATE_N} symbol version. The field's failure had both wrong at once: a
 * {@code -rdmav34} provider on a libibverbs of ABI 59, shipped without a {@code .driver} file, loaded by nothing and
 * reported by nothing.
 */
public final class RdmaProvidersCheck implements Check {
    static final String CONFIG_DIR = "/etc/libibverbs.d";
    private static final Pattern PRIVATE = Pattern.compile("IBVERBS_PRIVATE_(\\d{1,4})");
    private static final Pattern PROVIDER = Pattern.compile("lib(.+)-rdmav(\\d{1,4})\\.so");
    private static final int MAX_CONFIG_FILES = 256;
    private static final int MAX_PROVIDERS = 256;

    @Override
    public String name() {
        return "rdma";
    }

    @Override
    public List<CheckResult> run(Host host) {
        List<CheckResult> out = new ArrayList<>();
        LibraryPath path = LibraryPath.of(host);
        Map<String, String> drivers = driverLines(host, out);
        Optional<Path> verbs = path.find("libibverbs.so.1");
        OptionalInt pabi = OptionalInt.empty();
        Optional<Path> providerDir = Optional.empty();
        if (verbs.isPresent()) {
            providerDir = Optional.of(HostFiles.real(verbs.get()).getParent().resolve("libibverbs"));
            try {
                ElfFile f = ElfReader.read(verbs.get());
                pabi = privateAbi(f.definedVersions());
                if (pabi.isEmpty()) {
                    out.add(CheckResult.warn("rdma/libibverbs", host.show(verbs.get()) + " defines no IBVERBS_PRIVATE_N"
                            + " version, so its provider ABI is unknown", "reinstall rdma-core (libibverbs1)"));
                }
            } catch (ElfException e) {
                out.add(CheckResult.warn("rdma/libibverbs", "cannot read libibverbs: " + Text.printable(e.getMessage()),
                        "reinstall rdma-core (libibverbs1)"));
            }
        }
        List<Path> providers = providers(path, providerDir);
        if (verbs.isEmpty()) {
            if (drivers.isEmpty() && providers.isEmpty()) {
                out.add(CheckResult.ok("rdma", "rdma-core is not installed (no libibverbs.so.1 on the library path)"
                        + " and no provider is configured: nothing to check"));
            } else {
                out.add(CheckResult.warn("rdma", "providers are configured or installed but libibverbs.so.1 is not on"
                        + " the library path (searched " + String.join(":", path.dirs()) + ")",
                        "install rdma-core's libibverbs (libibverbs1) or add its directory to /etc/ld.so.conf.d"));
            }
            return out;
        }
        if (pabi.isEmpty()) {
            return out;
        }
        int abi = pabi.getAsInt();
        String verbsName = host.show(verbs.get()) + " (IBVERBS_PRIVATE_" + abi + ")";
        if (out.isEmpty() && drivers.isEmpty() && providers.isEmpty()) {
            out.add(CheckResult.ok("rdma", verbsName + ": no providers configured or installed"));
        }
        Map<String, List<Path>> byName = new LinkedHashMap<>();
        for (Path p : providers) {
            Matcher m = PROVIDER.matcher(p.getFileName().toString());
            if (m.matches()) {
                byName.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(p);
            }
        }
        for (Map.Entry<String, String> d : drivers.entrySet()) {
            out.add(configured(host, d.getKey(), d.getValue(), abi, verbsName, byName.getOrDefault(d.getKey(), List.of()),
                    path, providerDir));
        }
        for (Map.Entry<String, List<Path>> e : byName.entrySet()) {
            if (drivers.containsKey(e.getKey())) {
                continue;
            }
            for (Path p : e.getValue()) {
                out.add(orphan(host, e.getKey(), p, abi));
            }
        }
        return out;
    }

    /** A provider a {@code .driver} file names: does the library libibverbs will ask for exist and match? */
    private CheckResult configured(Host host, String name, String file, int abi, String verbsName, List<Path> found,
                                   LibraryPath path, Optional<Path> providerDir) {
        String id = "rdma/" + Text.printable(name);
        String want = "lib" + name + "-rdmav" + abi + ".so";
        Optional<Path> exact = found.stream().filter(p -> p.getFileName().toString().equals(want)).findFirst();
        if (name.startsWith("/")) {
            Path abs = host.path(name + "-rdmav" + abi + ".so");
            exact = Files.isRegularFile(abs) ? Optional.of(abs) : Optional.empty();
        }
        if (exact.isPresent()) {
            Optional<String> built = builtFor(exact.get(), abi);
            if (built.isPresent()) {
                return CheckResult.fail(id, host.show(exact.get()) + " has the right name but " + built.get()
                        + "; " + verbsName + " will refuse it", "rebuild the provider against the installed"
                        + " rdma-core (its rdma_provider() CMake macro sets the ABI)");
            }
            return CheckResult.ok(id, file + " names " + Text.printable(name) + "; "
                    + host.show(exact.get()) + " matches " + verbsName);
        }
        String where = providerDir.map(host::show).orElse("the provider directory") + " or the library path";
        if (!found.isEmpty()) {
            Path other = found.getFirst();
            return CheckResult.fail(id, file + " names " + Text.printable(name) + ", but only "
                    + host.show(other) + " exists: built for provider ABI " + abiOf(other) + ", while " + verbsName
                    + " loads only " + Text.printable(want) + " (libibverbs: Warning: couldn't load driver '"
                    + Text.printable(want) + "')", "rebuild the provider against the installed rdma-core with its"
                    + " rdma_provider() CMake macro, which names it " + Text.printable(want));
        }
        return CheckResult.warn(id, file + " names " + Text.printable(name) + ", but no "
                + Text.printable(want) + " is in " + where + ": libibverbs warns \"couldn't load driver\" at every"
                + " start", "install the " + Text.printable(name) + " provider, or remove the line at " + file);
    }

    /** A provider library no {@code .driver} file names: libibverbs never even tries it. */
    private CheckResult orphan(Host host, String name, Path p, int abi) {
        String id = "rdma/" + Text.printable(name);
        int builtAbi = abiOf(p);
        String drv = CONFIG_DIR + "/" + Text.printable(name) + ".driver";
        if (builtAbi != abi) {
            return CheckResult.fail(id, host.show(p) + " is built for provider ABI " + builtAbi + " but libibverbs"
                    + " here is IBVERBS_PRIVATE_" + abi + ", and no file in " + CONFIG_DIR + " names driver "
                    + Text.printable(name) + ": libibverbs never loads it", "rebuild it against the installed"
                    + " rdma-core with rdma_provider() (which names it lib" + Text.printable(name) + "-rdmav" + abi
                    + ".so) and install " + drv + " containing the line: driver " + Text.printable(name));
        }
        return CheckResult.fail(id, host.show(p) + " matches libibverbs's ABI " + abi + ", but no file in " + CONFIG_DIR
                + " names driver " + Text.printable(name) + ": libibverbs never loads it",
                "install " + drv + " containing the line: driver " + Text.printable(name));
    }

    /** Why a provider's own symbol versions say it was built for another ABI, if they do. */
    private static Optional<String> builtFor(Path provider, int abi) {
        try {
            ElfFile f = ElfReader.read(provider);
            OptionalInt needed = privateAbi(f.neededVersions());
            if (needed.isPresent() && needed.getAsInt() != abi) {
                return Optional.of("it needs IBVERBS_PRIVATE_" + needed.getAsInt());
            }
            return Optional.empty();
        } catch (ElfException e) {
            return Optional.of("it cannot be read (" + Text.printable(e.getMessage()) + ")");
        }
    }

    private static int abiOf(Path provider) {
        Matcher m = PROVIDER.matcher(provider.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }

    static OptionalInt privateAbi(List<String> versions) {
        return versions.stream().map(PRIVATE::matcher).filter(Matcher::matches)
                .mapToInt(m -> Integer.parseInt(m.group(1))).max();
    }

    /** {@code driver <name>} lines of every configuration file, name to the file (and line) naming it first. */
    private static Map<String, String> driverLines(Host host, List<CheckResult> out) {
        Map<String, String> drivers = new LinkedHashMap<>();
        for (Path f : HostFiles.list(host.path(CONFIG_DIR), MAX_CONFIG_FILES)) {
            Path fn = f.getFileName();
            if (fn == null || fn.toString().startsWith(".") || !Files.isRegularFile(f)) {
                continue;
            }
            Optional<String> text = HostFiles.text(f);
            if (text.isEmpty()) {
                out.add(CheckResult.warn("rdma/config", host.show(f) + " cannot be read or is larger than "
                        + (HostFiles.MAX_TEXT >> 10) + " KiB", "a provider file holds one line: driver <name>"));
                continue;
            }
            String[] lines = text.get().split("\n");
            for (int i = 0; i < lines.length; i++) {
                String[] words = lines[i].trim().split("\\s+");
                if (words.length >= 2 && words[0].equals("driver")) {
                    drivers.putIfAbsent(words[1], host.show(f) + ":" + (i + 1));
                }
            }
        }
        return drivers;
    }

    /** Provider libraries in libibverbs's provider directory and on the library path, each real file once. */
    private static List<Path> providers(LibraryPath path, Optional<Path> providerDir) {
        List<Path> out = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        providerDir.ifPresent(dir -> {
            for (Path p : HostFiles.list(dir, MAX_PROVIDERS * 4)) {
                if (PROVIDER.matcher(p.getFileName().toString()).matches() && Files.isRegularFile(p)
                        && seen.add(HostFiles.real(p)) && out.size() < MAX_PROVIDERS) {
                    out.add(p);
                }
            }
        });
        for (Path p : path.findAll(n -> PROVIDER.matcher(n).matches())) {
            if (seen.add(HostFiles.real(p)) && out.size() < MAX_PROVIDERS) {
                out.add(p);
            }
        }
        return out;
    }
}
