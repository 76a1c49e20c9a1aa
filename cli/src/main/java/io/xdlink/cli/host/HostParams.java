package io.xdlink.cli.host;

import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * xdlink's parameters as a process on the host under a root would load them: the configuration file
 * ({@code $XDLINK_CONFIG}, or {@value ParamSources#DEFAULT_CONFIG} when present) read under the root, then
 * {@code $XDLINK_PARAMS}. The host-reading commands (doctor, topology, params check) load them through here, so a
 * setting xdlink would refuse at start is a failure they report, never one they drop.
 */
public final class HostParams {
    private HostParams() {
    }

    /**
     * The sources for the host under {@code root} with environment {@code env}.
     *
     * @param root the directory standing for {@code /}
     */
    public static ParamSources sources(ParamRegistry registry, Path root, Map<String, String> env) {
        ParamSources s = ParamSources.of(registry).environment(env).fileSystem(root.getFileSystem());
        String named = env.get(ParamSources.CONFIG_VARIABLE);
        if (named != null && !named.isEmpty()) {
            return s.configFile(under(root, named), "$" + ParamSources.CONFIG_VARIABLE);
        }
        Path conf = under(root, ParamSources.DEFAULT_CONFIG);
        // A missing default file is normal; an empty $XDLINK_CONFIG reads none (the sources say so themselves).
        return named == null && Files.exists(conf) ? s.configFile(conf, ParamSources.DEFAULT_CONFIG) : s;
    }

    /**
     * Loads them.
     *
     * @throws ParamException naming the file and line or the variable, for what xdlink would refuse
     */
    public static Params load(ParamRegistry registry, Path root, Map<String, String> env) {
        return sources(registry, root, env).load();
    }

    /** An absolute path the host names, under the root; a relative one as it stands (the user's directory). */
    private static Path under(Path root, String path) {
        if (!path.startsWith("/")) {
            return root.getFileSystem().getPath(path);
        }
        String rel = path;
        while (rel.startsWith("/")) {
            rel = rel.substring(1);
        }
        return rel.isEmpty() ? root : root.resolve(rel);
    }
}
