package io.xdlink.cli.doctor;

import io.xdlink.cli.host.HostRoot;
import io.xdlink.cli.json.Json;
import io.xdlink.xdomain.sysfs.Text;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** {@code xdlink doctor [--root DIR] [--json]}. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check this host for what broke USB4 clusters in the field: links that did not bond, module"
                + " parameters the kernel ignores, DMA rings too large for the memory, rdma-core providers that cannot"
                + " load, collective-library plugins with stale or misspelled tables, and power settings that add"
                + " latency.",
                "Reads the host under --root; never writes, needs no privileges. One line per finding: status (ok,"
                        + " warn, fail), what was seen, and the fix. Exit status 1 when anything fails."})
public final class DoctorCommand implements Callable<Integer> {
    private final Function<String, Path> paths;
    private final Map<String, String> env;
    private final List<Check> checks;

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", defaultValue = "/",
            description = "Read the host under DIR instead of / (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--json", description = "Print a JSON array of {id, status, summary, fix}.")
    boolean json;

    public DoctorCommand() {
        this(Path::of, System.getenv(), DoctorChecks.all());
    }

    /** With a path resolver, an environment and the checks to run, so tests control all three. */
    public DoctorCommand(Function<String, Path> paths, Map<String, String> env, List<Check> checks) {
        this.paths = paths;
        this.env = Map.copyOf(env);
        this.checks = List.copyOf(checks);
    }

    @Override
    public Integer call() {
        Host host = new Host(HostRoot.resolve(paths, root), env);
        List<CheckResult> results = run(host, checks);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<Object> array = new ArrayList<>();
            for (CheckResult r : results) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", r.id());
                m.put("status", r.status().label());
                m.put("summary", r.summary());
                m.put("fix", r.fix());
                array.add(m);
            }
            out.println(Json.format(array));
        } else {
            out.print(text(results));
        }
        out.flush();
        return results.stream().anyMatch(r -> r.status() == Status.FAIL) ? 1 : 0;
    }

    /**
     * Runs every check. A check that throws is a defect in it, not in the host; it must not hide the other checks'
     * findings, so it is reported as a warning naming the check and the error.
     */
    public static List<CheckResult> run(Host host, List<Check> checks) {
        List<CheckResult> results = new ArrayList<>();
        for (Check c : checks) {
            try {
                List<CheckResult> r = c.run(host);
                results.addAll(r);
            } catch (RuntimeException e) {
                results.add(CheckResult.warn(c.name(), "this check stopped early: " + Text.printable(String.valueOf(e)),
                        "report it with the output of xdlink doctor --json"));
            }
        }
        return results;
    }

    /** One line per result, then a count. */
    public static String text(List<CheckResult> results) {
        StringBuilder sb = new StringBuilder();
        Map<Status, Integer> counts = new EnumMap<>(Status.class);
        for (CheckResult r : results) {
            counts.merge(r.status(), 1, Integer::sum);
            sb.append(String.format("%-4s  %s: %s", r.status().label(), r.id(), r.summary()));
            if (!r.fix().isEmpty()) {
                sb.append(" -- fix: ").append(r.fix());
            }
            sb.append('\n');
        }
        sb.append(String.format("%d ok, %d warn, %d fail%n", counts.getOrDefault(Status.OK, 0),
                counts.getOrDefault(Status.WARN, 0), counts.getOrDefault(Status.FAIL, 0)));
        return sb.toString();
    }
}
