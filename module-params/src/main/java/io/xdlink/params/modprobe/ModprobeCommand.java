package io.xdlink.params.modprobe;

import java.util.List;

/**
 * One command of a modprobe.d file. Only {@code options} is looked into; the others are recognised and kept so that a
 * reader (xdlink doctor) can report on them, but their content is not validated.
 */
public sealed interface ModprobeCommand {
    /** The file the command came from. */
    String file();

    /** The physical line the command starts on (1-based). */
    int line();

    /** The module the command is about, as written. */
    String module();

    /** The command's first word, as written in the file. */
    default String keyword() {
        return switch (this) {
            case Options o -> "options";
            case Install i -> "install";
            case Remove r -> "remove";
            case Alias a -> "alias";
            case Blacklist b -> "blacklist";
            case Softdep s -> "softdep";
        };
    }

    /** The module name as modprobe compares it: '-' and '_' alike. */
    default String normalizedModule() {
        return normalize(module());
    }

    /** modprobe and the kernel treat '-' and '_' in module and parameter names alike; case matters. */
    static String normalize(String name) {
        return name.replace('-', '_');
    }

    /**
     * {@code options MODULE p=v ...}: parameters handed to the module when it loads.
     *
     * @param text    everything after the module name, as modprobe passes it on
     * @param options the arguments, in order, as the kernel splits them
     */
    record Options(String file, int line, String module, String text, List<ModprobeOption> options)
            implements ModprobeCommand {
        public Options {
            options = List.copyOf(options);
        }
    }

    /** {@code install MODULE command...}: a command run instead of loading the module. */
    record Install(String file, int line, String module, String command) implements ModprobeCommand {
    }

    /** {@code remove MODULE command...}: a command run instead of unloading the module. */
    record Remove(String file, int line, String module, String command) implements ModprobeCommand {
    }

    /** {@code alias WILDCARD MODULE}: another name for a module. */
    record Alias(String file, int line, String alias, String module) implements ModprobeCommand {
    }

    /** {@code blacklist MODULE}: the module's own aliases are ignored. */
    record Blacklist(String file, int line, String module) implements ModprobeCommand {
    }

    /** {@code softdep MODULE pre: ... post: ...}: modules loaded before or after this one. */
    record Softdep(String file, int line, String module, String dependencies) implements ModprobeCommand {
    }
}
