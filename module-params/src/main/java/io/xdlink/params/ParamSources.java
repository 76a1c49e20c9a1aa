package io.xdlink.params;

import io.xdlink.params.files.BoundedFile;
import io.xdlink.params.modprobe.KernelArgs;
import io.xdlink.params.modprobe.ModprobeCommand;
import io.xdlink.params.modprobe.ModprobeFile;
import io.xdlink.params.modprobe.ModprobeOption;
import io.xdlink.params.modprobe.ModprobeParser;
import io.xdlink.params.modprobe.ModprobeProblem;
import io.xdlink.params.modprobe.SafeText;
import io.xdlink.params.modprobe.Severity;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where parameter values come from, lowest precedence first: the defaults; the configuration file, in modprobe.d
 * syntax ({@code options xdlink name=value ...}); the {@code XDLINK_PARAMS} environment variable
 * ({@code name=value name=value}, split and unquoted as the kernel splits module parameters); explicit values from
 * the command line or the plugin. Within one source a name set twice keeps the later value, as the kernel applies
 * options in order, and a warning says so.
 *
 * <p>The configuration file is, in order: one given through {@link #configFile}; the one {@code XDLINK_CONFIG} names
 * (an empty value means: read none); {@value #DEFAULT_CONFIG}. A missing default file is normal; a missing file that
 * was named explicitly is an error. Everything is read through the injected environment map and file system, so
 * tests run against an in-memory file system.
 *
 * <p>Nothing is ignored silently: an unknown name, a bad value, a line for another module or another command, an
 * unterminated quote, a line modprobe would skip: each is a {@link ParamException} naming the file and line or the
 * variable. Instances are immutable; each {@code with} method returns a new one.
 */
public final class ParamSources {
    /** The module name xdlink answers to in {@code options} lines. */
    public static final String MODULE = "xdlink";
    /** Where the configuration file is when nothing says otherwise. */
    public static final String DEFAULT_CONFIG = "/etc/xdlink/xdlink.conf";
    /** Names another configuration file. */
    public static final String CONFIG_VARIABLE = "XDLINK_CONFIG";
    /** Holds {@code name=value} settings. */
    public static final String PARAMS_VARIABLE = "XDLINK_PARAMS";
    /** The longest {@code XDLINK_PARAMS} accepted; a real one is a few dozen characters. */
    public static final int MAX_VARIABLE = 64 * 1024;

    /**
     * The configuration file that will be read.
     *
     * @param path     the file, empty when none is to be read
     * @param required whether its absence is an error (it was named explicitly)
     * @param source   what chose it: {@code default}, {@code $XDLINK_CONFIG} or the caller's label
     */
    public record ConfigFile(Optional<Path> path, boolean required, String source) {
    }

    private record Explicit(List<Map.Entry<String, String>> values, Origin origin) {
    }

    private record Setting(String value, Origin origin) {
    }

    private final ParamRegistry registry;
    private final Map<String, String> environment;
    private final FileSystem fileSystem;
    private final Path configFile;
    private final String configFileSource;
    private final List<Explicit> explicit;

    private ParamSources(ParamRegistry registry, Map<String, String> environment, FileSystem fileSystem,
                         Path configFile, String configFileSource, List<Explicit> explicit) {
        this.registry = registry;
        this.environment = environment;
        this.fileSystem = fileSystem;
        this.configFile = configFile;
        this.configFileSource = configFileSource;
        this.explicit = explicit;
    }

    /** Sources for {@code registry}, reading the process environment and the default file system. */
    public static ParamSources of(ParamRegistry registry) {
        return new ParamSources(Objects.requireNonNull(registry, "registry"), System.getenv(),
                FileSystems.getDefault(), null, "", List.of());
    }

    /** Sources for every provider on the class path, reading this process's environment and file system. */
    public static ParamSources system() {
        return of(ParamRegistry.load());
    }

    /** The same sources reading this environment instead. */
    public ParamSources environment(Map<String, String> env) {
        return new ParamSources(registry, Map.copyOf(env), fileSystem, configFile, configFileSource, explicit);
    }

    /** The same sources resolving the default and {@code XDLINK_CONFIG} paths in this file system. */
    public ParamSources fileSystem(FileSystem fs) {
        return new ParamSources(registry, environment, Objects.requireNonNull(fs, "fs"), configFile,
                configFileSource, explicit);
    }

    /** The same sources reading this configuration file, which must exist; {@code source} names who asked. */
    public ParamSources configFile(Path file, String source) {
        return new ParamSources(registry, environment, fileSystem, Objects.requireNonNull(file, "file"), source,
                explicit);
    }

    /** The same sources with explicit values on top, applied in the map's iteration order. */
    public ParamSources explicit(Map<String, String> values, Origin origin) {
        return explicit(List.copyOf(values.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue()))
                .toList()), origin);
    }

    /**
     * The same sources with explicit values on top, applied in list order: a name given twice, in any spelling
     * (alias, case, '-' for '_'), keeps the later value and leaves a warning naming it, as within a file.
     */
    public ParamSources explicit(List<Map.Entry<String, String>> values, Origin origin) {
        List<Explicit> e = new ArrayList<>(explicit);
        e.add(new Explicit(List.copyOf(values), Objects.requireNonNull(origin, "origin")));
        return new ParamSources(registry, environment, fileSystem, configFile, configFileSource, List.copyOf(e));
    }

    /** Which configuration file {@link #load} reads, and whether it must exist. */
    public ConfigFile configFile() {
        if (configFile != null) {
            return new ConfigFile(Optional.of(configFile), true, configFileSource);
        }
        String named = environment.get(CONFIG_VARIABLE);
        if (named != null) {
            if (named.isEmpty()) {
                return new ConfigFile(Optional.empty(), false, "$" + CONFIG_VARIABLE);
            }
            return new ConfigFile(Optional.of(fileSystem.getPath(named)), true, "$" + CONFIG_VARIABLE);
        }
        return new ConfigFile(Optional.of(fileSystem.getPath(DEFAULT_CONFIG)), false, "default");
    }

    /**
     * Resolves every parameter from every source.
     *
     * @throws ParamException naming the file and line or the variable, for the first thing that cannot be accepted
     */
    public Params load() {
        Params p = Params.defaults(registry);
        p = applyFile(p, configFile());
        String env = environment.get(PARAMS_VARIABLE);
        if (env != null) {
            p = applyVariable(p, env);
        }
        for (Explicit e : explicit) {
            Map<ParamSpec<?>, Setting> seen = new HashMap<>();
            for (Map.Entry<String, String> v : e.values()) {
                p = apply(p, v.getKey(), true, v.getValue(), e.origin(), seen);
            }
        }
        return p;
    }

    private Params applyFile(Params p, ConfigFile cf) {
        if (cf.path().isEmpty()) {
            return p;
        }
        Path path = cf.path().get();
        ModprobeFile file;
        try {
            file = ModprobeParser.read(path);
        } catch (NoSuchFileException e) {
            if (cf.required()) {
                throw new ParamException(path + ": configuration file not found (named by " + cf.source() + ")");
            }
            return p;
        } catch (BoundedFile.Refused | BoundedFile.TooLarge e) {
            // Our own one-line wording, naming no user text: it needs no clipping.
            throw new ParamException(path + ": cannot read the configuration file: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new ParamException(path + ": cannot read the configuration file: "
                    + SafeText.clip(String.valueOf(e.getMessage())));
        }
        for (ModprobeProblem problem : file.problems()) {
            if (problem.severity() == Severity.ERROR) {
                throw new ParamException(problem.format());
            }
        }
        Params out = p;
        for (ModprobeProblem problem : file.problems()) {
            out = out.withWarning(problem.format());
        }
        Map<ParamSpec<?>, Setting> seen = new HashMap<>();
        for (ModprobeCommand c : file.commands()) {
            String where = path + ":" + c.line();
            if (!(c instanceof ModprobeCommand.Options o)) {
                throw new ParamException(where + ": '" + c.keyword() + "' has no meaning in xdlink's "
                        + "configuration file, which reads only 'options " + MODULE + " name=value ...' lines");
            }
            if (!o.normalizedModule().equals(MODULE)) {
                throw new ParamException(where + ": options for module '" + SafeText.clip(o.module())
                        + "' do not belong in xdlink's configuration file, which reads only 'options " + MODULE
                        + " ...' lines; options for kernel modules go in /etc/modprobe.d");
            }
            for (ModprobeOption opt : o.options()) {
                Origin origin = Origin.file(path.toString(), opt.line());
                if (opt.openQuote()) {
                    throw new ParamException(origin + ": the double quote in '" + SafeText.clip(opt.text())
                            + "' is never closed, so it runs to the end of the line");
                }
                out = apply(out, opt.name(), opt.hasValue(), opt.value(), origin, seen);
            }
        }
        return out;
    }

    private Params applyVariable(Params p, String text) {
        Origin origin = Origin.environment(PARAMS_VARIABLE);
        if (text.length() > MAX_VARIABLE) {
            throw new ParamException(origin + " is " + text.length() + " characters long; at most " + MAX_VARIABLE
                    + " are read");
        }
        Params out = p;
        Map<ParamSpec<?>, Setting> seen = new HashMap<>();
        for (KernelArgs.Arg a : KernelArgs.split(text)) {
            if (a.openQuote()) {
                throw new ParamException(origin + ": the double quote in '" + SafeText.clip(text.substring(a.offset()))
                        + "' is never closed");
            }
            out = apply(out, a.name(), a.hasValue(), a.value(), origin, seen);
        }
        return out;
    }

    private Params apply(Params p, String name, boolean hasValue, String value, Origin origin,
                         Map<ParamSpec<?>, Setting> seen) {
        if (name.startsWith("#")) {
            throw new ParamException(origin + ": '" + SafeText.clip(name) + "' is read as a parameter name: '#' "
                    + "starts a comment only at the beginning of a line; put the comment on a line of its own");
        }
        if (name.isEmpty()) {
            throw new ParamException(origin + ": a setting with no name ('=" + SafeText.clip(value) + "')");
        }
        ParamSpec<?> spec = registry.find(name).orElseThrow(() -> ParamException.unknown(registry, name, origin));
        String v = value;
        if (!hasValue) {
            // A bare name switches a bool on, as the kernel does for bool module parameters.
            if (!(spec.type() instanceof ParamType.Bool)) {
                throw new ParamException(origin + ": '" + SafeText.clip(name) + "' needs a value: " + spec.name()
                        + "=" + formatDefault(spec) + " (allowed: "
                        + spec.type().rangeText() + ")");
            }
            v = "1";
        }
        Params out = p.with(name, v, origin);
        Setting before = seen.put(spec, new Setting(v, origin));
        if (before != null) {
            out = out.withWarning(origin + ": '" + spec.name() + "' is set again; " + SafeText.clip(v)
                    + " here replaces " + SafeText.clip(before.value()) + " from " + before.origin()
                    + (origin.source() == Origin.Source.EXPLICIT ? " (the later setting wins)"
                    : " (the later setting wins, as the kernel applies options in order)"));
        }
        return out;
    }

    private static <T> String formatDefault(ParamSpec<T> spec) {
        return spec.type().format(spec.defaultValue());
    }
}
