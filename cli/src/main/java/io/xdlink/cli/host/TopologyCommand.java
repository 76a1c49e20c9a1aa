package io.xdlink.cli.host;

import io.xdlink.cli.json.Json;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.Params;
import io.xdlink.xdomain.sysfs.HostView;
import io.xdlink.xdomain.sysfs.Text;
import io.xdlink.xdomain.sysfs.ThunderboltSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** {@code xdlink topology [--root DIR] [--json]}. */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = {"List this host's USB4 peers: name, vendor, UUID, rx/tx rate as lanes x speed, whether the link"
                + " is bonded, and the services each peer publishes with their bound driver and interface.",
                "Reads /sys/bus/thunderbolt under --root; needs no privileges and changes nothing."})
public final class TopologyCommand implements Callable<Integer> {
    private final Function<String, Path> paths;
    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", defaultValue = "/",
            description = "Read the host under DIR instead of / (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    public TopologyCommand() {
        this(Path::of, System.getenv());
    }

    /** With a path resolver and an empty environment, so tests can read an in-memory tree. */
    public TopologyCommand(Function<String, Path> paths) {
        this(paths, Map.of());
    }

    /** With a path resolver and the environment xdlink's parameters are read from. */
    public TopologyCommand(Function<String, Path> paths, Map<String, String> env) {
        this.paths = paths;
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        Path r = HostRoot.resolve(paths, root);
        HostView view = ThunderboltSysfs.read(r);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.format(TopologyReport.json(view)));
        } else {
            out.print(TopologyReport.text(view));
        }
        out.flush();
        // xdlink on this host would refuse to start with a bad setting: the topology is shown, and that is said.
        try {
            Params p = HostParams.load(ParamRegistry.load(), r, env);
            p.warnings().forEach(w -> spec.commandLine().getErr().println("xdlink: warning: " + Text.printable(w)));
        } catch (ParamException e) {
            spec.commandLine().getErr().println("xdlink: " + Text.printable(String.valueOf(e.getMessage()))
                    + " (xdlink refuses to start with this setting)");
            spec.commandLine().getErr().flush();
            return 1;
        }
        spec.commandLine().getErr().flush();
        return 0;
    }
}
