package io.xdlink.cli.doctor;

import io.xdlink.xdomain.sysfs.Text;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The host being examined: the root its files are read under ({@code /} for this machine) and the environment the
 * collective library would run with ({@code LD_LIBRARY_PATH}, {@code NCCL_NET_PLUGIN}).
 *
 * @param root the directory standing for {@code /}
 * @param env  environment variables
 */
public record Host(Path root, Map<String, String> env) {
    public Host {
        env = Map.copyOf(env);
    }

    /** A path the host knows as {@code absolute} ({@code /etc/libibverbs.d}), under the root. */
    public Path path(String absolute) {
        String rel = absolute;
        while (rel.startsWith("/")) {
            rel = rel.substring(1);
        }
        return rel.isEmpty() ? root : root.resolve(rel);
    }

    /** How the host names a path under the root: {@code /etc/libibverbs.d/x.driver}, made safe to print. */
    public String show(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path r = root.toAbsolutePath().normalize();
        if (abs.startsWith(r)) {
            StringBuilder sb = new StringBuilder();
            for (Path part : r.relativize(abs)) {
                sb.append('/').append(part);
            }
            return Text.printable(sb.isEmpty() ? "/" : sb.toString());
        }
        return Text.printable(abs.toString());
    }

    /** A path string some reader made under the root ({@code /tmp/copy/etc/x.conf}), as the host names it. */
    public String show(String pathUnderRoot) {
        String r = root.toAbsolutePath().normalize().toString();
        if (!r.equals("/") && pathUnderRoot.startsWith(r + "/")) {
            return Text.printable(pathUnderRoot.substring(r.length()));
        }
        return Text.printable(pathUnderRoot);
    }

    public Optional<String> env(String name) {
        return Optional.ofNullable(env.get(name)).filter(v -> !v.isEmpty());
    }
}
