package io.xdlink.cli.host;

import io.xdlink.cli.json.Json;
import io.xdlink.xdomain.sysfs.HostView;
import io.xdlink.xdomain.sysfs.ThunderboltSysfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** {@code xdlink topology [--root DIR] [--json]}. */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = {"List this host's USB4 peers: name, vendor, UUID, rx/tx rate as lanes x speed, whether the link"
                + " is bonded, and the services each peer publishes with their bound driver and interface.",
                "Reads /sys/bus/thunderbolt under --root; needs no privileges and changes nothing."})
public final class TopologyCommand implements Callable<Integer> {
    private final Function<String, Path> paths;

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", defaultValue = "/",
            description = "Read the host under DIR instead of / (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    public TopologyCommand() {
        this(Path::of);
    }

    /** With a path resolver, so tests can read an in-memory tree. */
    public TopologyCommand(Function<String, Path> paths) {
        this.paths = paths;
    }

    @Override
    public Integer call() {
        HostView view = ThunderboltSysfs.read(HostRoot.resolve(paths, root));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.format(TopologyReport.json(view)));
        } else {
            out.print(TopologyReport.text(view));
        }
        out.flush();
        return 0;
    }
}
