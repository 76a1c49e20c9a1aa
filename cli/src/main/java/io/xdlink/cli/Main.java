package io.xdlink.cli;

import io.xdlink.cli.bench.BenchCommand;
import io.xdlink.cli.cluster.ClusterCommand;
import io.xdlink.cli.doctor.DoctorCommand;
import io.xdlink.cli.host.TopologyCommand;
import io.xdlink.cli.params.ParamsCommand;
import io.xdlink.cli.xdomain.XdomainCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import java.util.concurrent.Callable;

/** Entry point of the {@code xdlink} command. */
@Command(name = "xdlink",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "USB4/Thunderbolt host-to-host RDMA bridge.",
        subcommands = {HelpCommand.class, BenchCommand.class, ClusterCommand.class, TopologyCommand.class,
                DoctorCommand.class, ParamsCommand.class, XdomainCommand.class})
public final class Main implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit status, so tests can call it without exiting the JVM. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line, with xdlink's handling of bad input (one line, no stack trace). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // A mistyped option is one line naming it, not a page of usage: the user asked for something specific.
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine line = ex.getCommandLine();
            line.getErr().println(line.getCommandSpec().qualifiedName() + ": " + ex.getMessage()
                    + " (see " + line.getCommandSpec().qualifiedName() + " --help)");
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, line, parseResult) -> {
            line.getErr().println("xdlink: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return ex instanceof UsageException ? 2 : 1;
        });
        return cl;
    }

    /** {@code xdlink} alone asked for nothing: the usage goes to standard error and the status is 2, as for bad usage. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().flush();
        return 2;
    }

    /** The version from the jar manifest (the Maven project version), or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"xdlink " + (v == null ? "development" : v),
                    "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
