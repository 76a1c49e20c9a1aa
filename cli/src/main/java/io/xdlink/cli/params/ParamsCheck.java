package io.xdlink.cli.params;

import io.xdlink.cli.host.HostParams;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.params.check.Finding;
import io.xdlink.params.check.OptionsChecker;
import io.xdlink.params.modprobe.ModprobeFile;
import io.xdlink.params.modprobe.ModprobeParser;
import io.xdlink.params.modprobe.ModprobeScan;
import io.xdlink.params.modprobe.ModprobeSearchPath;
import io.xdlink.params.modprobe.SafeText;
import io.xdlink.params.modprobe.Severity;
import io.xdlink.xdomain.sysfs.Text;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runs the checker over one of the three inputs of {@code xdlink params check} and prints what it found. */
final class ParamsCheck {
    private final ParamRegistry registry;
    private final OptionsChecker checker;
    private final PrintWriter out;

    private final Map<String, String> environment;

    ParamsCheck(ParamRegistry registry, Map<String, String> environment, PrintWriter out) {
        this.registry = registry;
        this.environment = Map.copyOf(environment);
        this.checker = new OptionsChecker(registry);
        this.out = out;
    }

    /** Checks text typed on the command line; returns the exit status. */
    int text(String label, String text) {
        ModprobeFile f = ModprobeParser.parse(label, text);
        return report(checker.check(List.of(f)), List.of(), summaryOf(List.of(f)));
    }

    /** Checks one file; returns the exit status. */
    int file(Path path) throws IOException {
        ModprobeFile f = ModprobeParser.read(path);
        return report(checker.check(List.of(f)), List.of(), summaryOf(List.of(f)));
    }

    /** Checks a host's modprobe.d directories and xdlink's configuration file under {@code root}. */
    int host(Path root) {
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        List<Finding> findings = new ArrayList<>(checker.check(scan));
        List<String> extra = new ArrayList<>();
        ParamSources sources = HostParams.sources(registry, root, environment);
        Path conf = sources.configFile().path().orElse(null);
        try {
            Params p = sources.load();
            p.warnings().forEach(w -> extra.add("warning: " + w));
        } catch (ParamException e) {
            extra.add("error: " + e.getMessage());
        }
        if (scan.files().isEmpty()) {
            out.println("No modprobe.d files under " + root + " (searched " + String.join(", ",
                    ModprobeSearchPath.DIRECTORIES) + ").");
        } else {
            out.println("Read, in modprobe's order: " + String.join(", ",
                    scan.files().stream().map(ModprobeFile::name).toList()));
        }
        for (ModprobeScan.Shadowed s : scan.shadowed()) {
            out.println("Not read: " + s.path() + " (" + s.by() + " has the same name and wins)");
        }
        if (conf == null) {
            conf = root.resolve(ParamSources.DEFAULT_CONFIG.substring(1));
        }
        out.println("xdlink's configuration: " + Text.printable(conf.toString()) + (Files.exists(conf) ? ""
                : " (not present)"));
        String env = environment.get(ParamSources.PARAMS_VARIABLE);
        if (env != null) {
            out.println("$" + ParamSources.PARAMS_VARIABLE + ": '" + SafeText.clip(env) + "'");
        }
        out.println();
        return report(findings, extra, summaryOf(scan.files()));
    }

    private static String summaryOf(List<ModprobeFile> files) {
        long lines = files.stream().mapToLong(f -> f.options().size()).sum();
        return lines + " options line" + (lines == 1 ? "" : "s") + " in " + files.size() + " file"
                + (files.size() == 1 ? "" : "s");
    }

    private int report(List<Finding> findings, List<String> extra, String checked) {
        int errors = 0;
        int warnings = 0;
        int ignored = 0;
        Set<String> unchecked = new LinkedHashSet<>();
        for (Finding f : findings) {
            if (f.kind() == Finding.Kind.UNCHECKED_MODULE) {
                unchecked.add(f.module());
                continue;
            }
            String where = f.line() > 0 ? f.file() + ":" + f.line() : f.file();
            out.println(where + ": " + f.severity().label() + ": " + f.message());
            if (!f.detail().isEmpty()) {
                out.println("    " + f.detail());
            }
            if (f.severity() == Severity.ERROR) {
                errors++;
            } else if (f.severity() == Severity.WARNING) {
                warnings++;
            }
            if (ignoredByKernel(f)) {
                ignored++;
            }
        }
        for (String e : extra) {
            out.println(e);
            if (e.startsWith("error:")) {
                errors++;
            } else {
                warnings++;
            }
        }
        if (!unchecked.isEmpty()) {
            out.println("note: not checked, xdlink does not know their parameters: " + String.join(", ", unchecked));
        }
        if (errors == 0 && warnings == 0) {
            out.println("ok: " + checked + ", nothing the kernel or xdlink would ignore.");
        } else {
            out.println(errors + " error" + (errors == 1 ? "" : "s") + ", " + warnings + " warning"
                    + (warnings == 1 ? "" : "s") + " in " + checked
                    + (ignored > 0 ? "; " + ignored + " name" + (ignored == 1 ? "" : "s")
                    + " the kernel would silently ignore" : "") + ".");
        }
        out.flush();
        return errors > 0 ? 1 : 0;
    }

    private static boolean ignoredByKernel(Finding f) {
        return switch (f.kind()) {
            case UNKNOWN_PARAMETER, MISNAMED_PARAMETER, REMOVED_PARAMETER, COMMENT_AS_PARAMETER, UNKNOWN_MODULE -> !f.module()
                    .equals(ParamSources.MODULE);
            default -> false;
        };
    }
}
