package io.xdlink.cli.doctor;

import io.xdlink.cli.host.HostParams;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.params.check.Finding;
import io.xdlink.params.check.ForeignDriver;
import io.xdlink.params.check.ForeignDrivers;
import io.xdlink.params.check.OptionsChecker;
import io.xdlink.params.modprobe.ModprobeFile;
import io.xdlink.params.modprobe.ModprobeProblem;
import io.xdlink.params.modprobe.ModprobeScan;
import io.xdlink.params.modprobe.ModprobeSearchPath;
import io.xdlink.xdomain.sysfs.Text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;

/**
 * Check 2, module parameters: every {@code options} line for xdlink and the USB4 drivers beside it, checked by
 * module-params' {@link OptionsChecker} (the scanner and the knowledge of each driver's declared names are there),
 * shown with the values the loaded modules really have under {@code /sys/module/<m>/parameters}. A name the kernel
 * silently drops is a failure: what the user wrote does not happen.
 */
public final class ModuleParamsCheck implements Check {
    private static final int MAX_PARAMETERS = 128;

    @Override
    public String name() {
        return "params";
    }

    @Override
    public List<CheckResult> run(Host host) {
        List<CheckResult> out = new ArrayList<>();
        ParamRegistry registry = ParamRegistry.load();
        ModprobeScan scan = ModprobeSearchPath.scan(host.root());
        ModprobeSettings settings = new ModprobeSettings(host, scan);
        Set<String> ours = ours();
        Set<String> filesForUs = new HashSet<>();
        for (ModprobeFile f : scan.files()) {
            if (f.options().stream().anyMatch(o -> ours.contains(o.normalizedModule()))) {
                filesForUs.add(f.name());
            }
        }
        int lines = 0;
        for (ModprobeFile f : scan.files()) {
            lines += (int) f.options().stream().filter(o -> ours.contains(o.normalizedModule())).count();
        }
        for (Finding f : new OptionsChecker(registry).check(scan)) {
            boolean about = ours.contains(f.module()) || f.kind() == Finding.Kind.UNKNOWN_MODULE
                    || (f.module().isEmpty() && filesForUs.contains(f.file()));
            if (!about || f.kind() == Finding.Kind.UNCHECKED_MODULE) {
                continue;
            }
            out.add(fromFinding(host, f));
        }
        unread(host, scan, out);
        xdlinkConfig(host, registry, out);
        for (ForeignDriver d : ForeignDrivers.ALL) {
            loaded(host, d, settings).ifPresent(out::add);
        }
        if (out.isEmpty()) {
            out.add(CheckResult.ok("params", lines == 0
                    ? "no options lines for " + String.join(", ", ours) + " in " + scan.files().size()
                            + " modprobe.d file" + (scan.files().size() == 1 ? "" : "s")
                    : lines + " options line" + (lines == 1 ? "" : "s") + " for " + String.join(", ", ours)
                            + ": every name is one the module declares"));
        }
        return out;
    }

    /** xdlink and the drivers module-params knows, '_' form. */
    static Set<String> ours() {
        Set<String> s = new LinkedHashSet<>();
        s.add(ParamSources.MODULE);
        ForeignDrivers.ALL.forEach(d -> s.add(d.module()));
        return s;
    }

    private CheckResult fromFinding(Host host, Finding f) {
        String where = host.show(f.file()) + (f.line() > 0 ? ":" + f.line() : "");
        String id = "params/" + (where.startsWith("/") ? where.substring(1) : where);
        String summary = where + ": " + f.message();
        if (f.kind() == Finding.Kind.MISNAMED_PARAMETER) {
            Optional<ForeignDriver> d = ForeignDrivers.find(f.module());
            Optional<String> replacement = d.flatMap(x -> x.mistake(f.parameter()))
                    .map(ForeignDriver.Mistake::replacement).filter(r -> !r.isEmpty());
            if (replacement.isPresent()) {
                Optional<String> now = current(host, f.module(), replacement.get());
                summary += now.map(v -> " (the loaded " + f.module() + " has " + replacement.get() + "=" + v + ")")
                        .orElse("");
            }
        }
        String fix = f.detail().isEmpty() ? "correct the line; the kernel ignores what it does not know"
                : f.detail();
        return switch (f.severity()) {
            case ERROR -> CheckResult.fail(id, summary, fix);
            case WARNING -> CheckResult.warn(id, summary, fix);
            case NOTE -> CheckResult.ok(id, summary);
        };
    }

    /**
     * The modprobe.d entries that could not be read: a FIFO, a device, a file without read permission, a directory
     * named like a configuration file. Whatever they hold is not applied, and doctor cannot see it either, so it
     * cannot say "ok" about them.
     */
    private static void unread(Host host, ModprobeScan scan, List<CheckResult> out) {
        for (ModprobeProblem p : scan.problems()) {
            String where = host.show(p.file());
            out.add(CheckResult.warn("params/" + (where.startsWith("/") ? where.substring(1) : where),
                    where + ": " + p.message() + "; modprobe skips what it cannot read, so no option in it takes"
                            + " effect, and doctor could not check it",
                    "make " + where + " a regular file modprobe can read (chmod 644), or remove it"));
        }
    }

    /**
     * Errors and warnings of xdlink's own configuration, as xdlink would load it on this host: the configuration
     * file ({@code $XDLINK_CONFIG} or the default) and {@code $XDLINK_PARAMS}.
     */
    private static void xdlinkConfig(Host host, ParamRegistry registry, List<CheckResult> out) {
        String where = describeSources(host);
        try {
            Params p = HostParams.load(registry, host.root(), host.env());
            for (String w : p.warnings()) {
                out.add(CheckResult.warn("params/xdlink", host.show(w), "edit " + where));
            }
        } catch (ParamException e) {
            out.add(CheckResult.fail("params/xdlink", host.show(String.valueOf(e.getMessage())),
                    "correct " + where + "; xdlink refuses to start with it as it is"));
        }
    }

    /** Where xdlink's settings come from on this host, for a fix line. */
    private static String describeSources(Host host) {
        String conf = host.env().get(ParamSources.CONFIG_VARIABLE);
        String file = conf == null ? ParamSources.DEFAULT_CONFIG
                : conf.isEmpty() ? "" : Text.printable(conf) + " ($" + ParamSources.CONFIG_VARIABLE + ")";
        boolean env = host.env().containsKey(ParamSources.PARAMS_VARIABLE);
        return file.isEmpty() ? "$" + ParamSources.PARAMS_VARIABLE
                : env ? file + " or $" + ParamSources.PARAMS_VARIABLE : file;
    }

    /**
     * A loaded module's current parameter values, and any value modprobe.d sets that the loaded module does not have
     * (it was loaded before the line was written, or from somewhere the line does not reach).
     */
    private static Optional<CheckResult> loaded(Host host, ForeignDriver d, ModprobeSettings settings) {
        Path dir = host.path("/sys/module/" + d.module() + "/parameters");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Path p : HostFiles.list(dir, MAX_PARAMETERS)) {
            HostFiles.attribute(p).ifPresent(v -> values.put(Text.printable(p.getFileName().toString()),
                    Text.printable(v)));
        }
        List<String> differ = new ArrayList<>();
        for (ForeignDriver.Parameter param : d.parameters()) {
            Optional<ModprobeSettings.Setting> s = settings.get(d.module(), param.name());
            String now = values.get(param.name());
            if (s.isPresent() && now != null && !same(s.get().value(), now)) {
                differ.add(param.name() + "=" + Text.printable(s.get().value()) + " at " + s.get().where()
                        + " but the loaded module has " + now);
            }
        }
        String shown = values.isEmpty() ? "no readable parameters" : String.join(", ",
                values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        String id = "params/" + d.module();
        if (!differ.isEmpty()) {
            return Optional.of(CheckResult.warn(id, d.module() + " is loaded with values modprobe.d does not give:"
                    + " " + String.join("; ", differ), "reload it so the options apply: sudo modprobe -r "
                    + d.module() + " && sudo modprobe " + d.module()));
        }
        return Optional.of(CheckResult.ok(id, d.module() + " is loaded: " + shown));
    }

    /** Whether a modprobe value and a sysfs value say the same (a bool shows as Y or N). */
    static boolean same(String configured, String current) {
        if (configured.equals(current)) {
            return true;
        }
        return bool(configured).isPresent() && bool(configured).equals(bool(current));
    }

    private static Optional<Boolean> bool(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "y", "1", "on", "true", "yes" -> Optional.of(true);
            case "n", "0", "off", "false", "no" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /** A loaded module's current value of one parameter. */
    static Optional<String> current(Host host, String module, String parameter) {
        return HostFiles.attribute(host.path("/sys/module/" + module + "/parameters/" + parameter))
                .map(Text::printable);
    }
}
