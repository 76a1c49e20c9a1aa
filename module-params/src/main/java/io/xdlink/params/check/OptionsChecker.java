package io.xdlink.params.check;

import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;
import io.xdlink.params.ParamValueException;
import io.xdlink.params.Suggestions;
import io.xdlink.params.modprobe.ModprobeCommand;
import io.xdlink.params.modprobe.ModprobeFile;
import io.xdlink.params.modprobe.ModprobeOption;
import io.xdlink.params.modprobe.ModprobeProblem;
import io.xdlink.params.modprobe.ModprobeScan;
import io.xdlink.params.modprobe.SafeText;
import io.xdlink.params.modprobe.Severity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks {@code options} lines the way the kernel will apply them, and reports every name it would silently ignore.
 *
 * <p>For the foreign drivers ({@link ForeignDrivers}) it checks names: a name the module does not declare is dropped
 * by the kernel with nothing but a dmesg line, so it is an error, with the known field mistake or the closest
 * declared names as the suggestion. For {@code xdlink} it checks names and values against the registry. For every
 * module it reports a name set twice (the kernel applies options in order, so the last one wins) and a '#' in the
 * middle of a line (modprobe passes it and what follows to the kernel as parameters). Every module accepts the
 * kernel's own {@code dyndbg} and {@code async_probe}.
 */
public final class OptionsChecker {
    /** Parameters the kernel accepts for every module (kernel/module/main.c, unknown_module_param_cb). */
    public static final List<String> KERNEL_PARAMETERS = List.of("dyndbg", "async_probe");

    private final ParamRegistry registry;
    private final List<ForeignDriver> drivers;

    public OptionsChecker(ParamRegistry registry) {
        this(registry, ForeignDrivers.ALL);
    }

    public OptionsChecker(ParamRegistry registry, List<ForeignDriver> drivers) {
        this.registry = registry;
        this.drivers = List.copyOf(drivers);
    }

    /**
     * Checks files read in this order (later settings override earlier ones, as modprobe concatenates options in
     * file order). Problems the parser found become {@link Finding.Kind#SYNTAX} findings.
     */
    public List<Finding> check(List<ModprobeFile> files) {
        List<Finding> out = new ArrayList<>();
        Map<String, Map<String, Previous>> seen = new HashMap<>();
        for (ModprobeFile f : files) {
            for (ModprobeProblem p : f.problems()) {
                out.add(new Finding(p.severity(), Finding.Kind.SYNTAX, p.file(), p.line(), "", "", p.message(), ""));
            }
            for (ModprobeCommand.Options o : f.options()) {
                checkOptions(o, out, seen.computeIfAbsent(o.normalizedModule(), m -> new HashMap<>()));
            }
        }
        return out;
    }

    /**
     * Checks a host's whole modprobe.d configuration. On top of {@link #check(List)}: an {@code options xdlink} line
     * there is valid syntax but has no effect, because xdlink reads its own configuration file.
     */
    public List<Finding> check(ModprobeScan scan) {
        List<Finding> out = new ArrayList<>();
        for (ModprobeProblem p : scan.problems()) {
            out.add(new Finding(p.severity(), Finding.Kind.SYNTAX, p.file(), p.line(), "", "", p.message(), ""));
        }
        out.addAll(check(scan.files()));
        for (ModprobeFile f : scan.files()) {
            for (ModprobeCommand.Options o : f.options(ParamSources.MODULE)) {
                out.add(new Finding(Severity.WARNING, Finding.Kind.NOT_READ_BY_XDLINK, o.file(), o.line(),
                        ParamSources.MODULE, "", "xdlink does not read modprobe.d, so this line has no effect",
                        "xdlink is not a kernel module; put 'options xdlink ...' in " + ParamSources.DEFAULT_CONFIG
                                + " or in $" + ParamSources.PARAMS_VARIABLE));
            }
        }
        return out;
    }

    private record Previous(String value, String where) {
    }

    private void checkOptions(ModprobeCommand.Options o, List<Finding> out, Map<String, Previous> seen) {
        String module = o.normalizedModule();
        boolean xdlink = module.equals(ParamSources.MODULE);
        Optional<ForeignDriver> driver = drivers.stream().filter(d -> d.module().equals(module)).findFirst();
        if (!xdlink && driver.isEmpty()) {
            unknownModule(o, out);
            return;
        }
        for (ModprobeOption opt : o.options()) {
            Finding f = xdlink ? checkXdlink(o, opt) : checkForeign(o, opt, driver.get());
            if (f != null) {
                out.add(f);
                if (f.severity() == Severity.ERROR) {
                    continue;
                }
            }
            String key = xdlink ? registry.find(opt.name()).map(ParamSpec::name).orElse(opt.normalizedName())
                    : opt.normalizedName();
            String where = o.file() + ":" + opt.line();
            Previous before = seen.put(key, new Previous(shown(opt), where));
            if (before != null) {
                out.add(finding(Severity.WARNING, Finding.Kind.REPEATED_PARAMETER, o, opt,
                        module + ": '" + SafeText.clip(opt.name()) + "' is set again; the kernel applies options in "
                                + "order, so " + shown(opt) + " here replaces " + before.value()
                                + " from " + before.where(),
                        ""));
            }
        }
    }

    private static String shown(ModprobeOption opt) {
        return opt.hasValue() ? "'" + SafeText.clip(opt.value()) + "'" : "the bare name";
    }

    private Finding common(ModprobeCommand.Options o, ModprobeOption opt, String module) {
        String name = opt.name();
        if (name.startsWith("#")) {
            return finding(Severity.ERROR, Finding.Kind.COMMENT_AS_PARAMETER, o, opt,
                    module + " receives '" + SafeText.clip(name) + "' as a parameter and ignores it",
                    "'#' starts a comment only at the beginning of a line; put the comment on a line of its own");
        }
        if (name.isEmpty()) {
            return finding(Severity.ERROR, Finding.Kind.UNKNOWN_PARAMETER, o, opt,
                    module + ": a setting with no name ('" + SafeText.clip(opt.text()) + "'); the kernel ignores it",
                    "");
        }
        if (opt.openQuote()) {
            return finding(Severity.WARNING, Finding.Kind.SYNTAX, o, opt,
                    module + ": the double quote in '" + SafeText.clip(opt.text()) + "' is never closed, so the "
                            + "value runs to the end of the line",
                    "");
        }
        return null;
    }

    private Finding checkForeign(ModprobeCommand.Options o, ModprobeOption opt, ForeignDriver d) {
        Finding c = common(o, opt, d.module());
        if (c != null) {
            return c;
        }
        String name = opt.normalizedName();
        if (d.parameter(name).isPresent() || KERNEL_PARAMETERS.contains(name)) {
            return null;
        }
        Optional<ForeignDriver.Mistake> mistake = d.mistake(name);
        String quoted = "'" + SafeText.clip(opt.name()) + "'";
        if (mistake.isPresent()) {
            ForeignDriver.Mistake m = mistake.get();
            if (!m.replacement().isEmpty()) {
                return finding(Severity.ERROR, Finding.Kind.MISNAMED_PARAMETER, o, opt,
                        d.module() + " has no parameter " + quoted + "; did you mean '" + m.replacement() + "'?",
                        m.why() + ". Write " + m.replacement() + (opt.hasValue() ? "=" + SafeText.clip(opt.value())
                                : "") + " instead.");
            }
            return finding(Severity.ERROR, Finding.Kind.REMOVED_PARAMETER, o, opt,
                    d.module() + " has no parameter " + quoted + " any more",
                    m.why() + ". Remove it from the line.");
        }
        List<String> close = Suggestions.closest(SafeText.clip(name), d.names(), 3);
        String hint = close.isEmpty() ? "" : "; did you mean " + quoteList(close) + "?";
        return finding(Severity.ERROR, Finding.Kind.UNKNOWN_PARAMETER, o, opt,
                d.module() + " has no parameter " + quoted + hint,
                "the kernel ignores it with only 'unknown parameter ignored' in dmesg; " + d.module()
                        + " declares " + String.join(", ", d.names()));
    }

    private Finding checkXdlink(ModprobeCommand.Options o, ModprobeOption opt) {
        String module = ParamSources.MODULE;
        Finding c = common(o, opt, module);
        if (c != null) {
            return c;
        }
        Optional<ParamSpec<?>> found = registry.find(opt.name());
        if (found.isEmpty()) {
            List<String> close = Suggestions.closest(SafeText.clip(opt.name()), canonicalNames(), 3);
            String hint = close.isEmpty() ? "" : "; did you mean " + quoteList(close) + "?";
            return finding(Severity.ERROR, Finding.Kind.UNKNOWN_PARAMETER, o, opt,
                    "xdlink has no parameter '" + SafeText.clip(opt.name()) + "'" + hint,
                    "xdlink refuses unknown names; './xdlink params' lists every parameter");
        }
        ParamSpec<?> spec = found.get();
        if (!opt.hasValue() && !(spec.type() instanceof ParamType.Bool)) {
            return finding(Severity.ERROR, Finding.Kind.BAD_VALUE, o, opt,
                    "xdlink: '" + SafeText.clip(opt.name()) + "' needs a value (allowed: " + spec.type().rangeText()
                            + ")", "");
        }
        if (opt.hasValue()) {
            try {
                spec.type().parse(opt.value());
            } catch (ParamValueException e) {
                return finding(Severity.ERROR, Finding.Kind.BAD_VALUE, o, opt,
                        "xdlink: bad value for '" + SafeText.clip(opt.name()) + "': " + e.getMessage(), "");
            }
        }
        if (spec.deprecated().contains(ParamSpec.normalize(opt.name()))) {
            return finding(Severity.WARNING, Finding.Kind.DEPRECATED_PARAMETER, o, opt,
                    "xdlink: '" + SafeText.clip(opt.name()) + "' is deprecated; use '" + spec.name() + "'", "");
        }
        return null;
    }

    private List<String> canonicalNames() {
        Set<String> names = new LinkedHashSet<>();
        for (ParamSpec<?> s : registry.specs()) {
            names.add(s.name());
            names.addAll(s.aliases());
        }
        return List.copyOf(names);
    }

    private void unknownModule(ModprobeCommand.Options o, List<Finding> out) {
        List<String> known = new ArrayList<>();
        known.add(ParamSources.MODULE);
        drivers.forEach(d -> known.add(d.module()));
        String module = o.normalizedModule();
        // Only a near miss (an edit or two) is a likely typo; containment would flag thunderbolt_foo as thunderbolt.
        Optional<String> near = known.stream().filter(k -> editDistanceAtMostTwo(module, k)).findFirst();
        if (near.isPresent()) {
            out.add(new Finding(Severity.ERROR, Finding.Kind.UNKNOWN_MODULE, o.file(), o.line(), module, "",
                    "options for module '" + SafeText.clip(o.module()) + "'; did you mean '" + near.get() + "'?",
                    "modprobe uses options only for the module of exactly that name ('-' and '_' alike), so for a "
                            + "misspelt name these options are never applied"));
            return;
        }
        out.add(new Finding(Severity.NOTE, Finding.Kind.UNCHECKED_MODULE, o.file(), o.line(), module, "",
                "not checked: xdlink knows the parameters of " + String.join(", ", known) + ", not of '"
                        + SafeText.clip(o.module()) + "'", ""));
    }

    private static boolean editDistanceAtMostTwo(String a, String b) {
        // Names longer than any module name cannot be within two edits of one; this also bounds the work.
        return Math.abs(a.length() - b.length()) <= 2 && !a.equals(b) && Suggestions.distance(a, b) <= 2;
    }

    private static Finding finding(Severity severity, Finding.Kind kind, ModprobeCommand.Options o,
                                   ModprobeOption opt, String message, String detail) {
        return new Finding(severity, kind, o.file(), opt.line(), o.normalizedModule(), opt.name(), message, detail);
    }

    private static String quoteList(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                sb.append(i == names.size() - 1 ? " or " : ", ");
            }
            sb.append('\'').append(names.get(i)).append('\'');
        }
        return sb.toString();
    }
}
