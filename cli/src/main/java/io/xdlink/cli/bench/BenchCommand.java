package io.xdlink.cli.bench;

import io.xdlink.xdomain.sysfs.Text;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import io.xdlink.cli.UsageException;
import java.util.Locale;

/** {@code xdlink bench}: perftest's tests over xdlink, between two hosts or inside this one with {@code --loopback}. */
@Command(name = "bench",
        description = {"perftest-compatible benchmarks over xdlink rails.",
                "Server: xdlink bench write_bw [--rail IFACE]...   Client: xdlink bench write_bw SERVER [--rail IFACE]...",
                "No hardware: xdlink bench write_bw --loopback"},
        mixinStandardHelpOptions = true,
        subcommands = {BenchCommand.WriteBw.class, BenchCommand.WriteLat.class, BenchCommand.SendBw.class,
                BenchCommand.SendLat.class, BenchCommand.Plot.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** One test: validates the options, then runs as server, client or loopback. */
    abstract static class TestCommand implements Callable<Integer> {
        @Mixin
        BenchOptions options;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        private final BenchTest test;

        TestCommand(BenchTest test) {
            this.test = test;
        }

        @Override
        public Integer call() {
            boolean terminal = System.console() != null && System.console().isTerminal();
            BenchSettings s = options.settings(test, terminal);
            return BenchMain.run(s, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }

    @Command(name = "write_bw", mixinStandardHelpOptions = true, description = "RDMA WRITE bandwidth (ib_write_bw).")
    static final class WriteBw extends TestCommand {
        WriteBw() {
            super(BenchTest.WRITE_BW);
        }
    }

    @Command(name = "write_lat", mixinStandardHelpOptions = true, description = "RDMA WRITE latency (ib_write_lat).")
    static final class WriteLat extends TestCommand {
        WriteLat() {
            super(BenchTest.WRITE_LAT);
        }
    }

    @Command(name = "send_bw", mixinStandardHelpOptions = true, description = "SEND bandwidth (ib_send_bw).")
    static final class SendBw extends TestCommand {
        SendBw() {
            super(BenchTest.SEND_BW);
        }
    }

    @Command(name = "send_lat", mixinStandardHelpOptions = true, description = "SEND latency (ib_send_lat).")
    static final class SendLat extends TestCommand {
        SendLat() {
            super(BenchTest.SEND_LAT);
        }
    }

    /** Draws earlier --json results into one PNG, to overlay one cable against two. */
    @Command(name = "plot", mixinStandardHelpOptions = true,
            description = "Draw bandwidth and latency against size from --json result files, one series per file.")
    static final class Plot implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "OUT.png", description = "The PNG to write.")
        Path png;

        @Parameters(index = "1..*", arity = "1..*", paramLabel = "RUN.json", description = "Result files.")
        List<Path> runs = new ArrayList<>();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            if (!png.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
                throw new UsageException("the plot is a PNG; name it *.png, got "
                        + Text.quote(png.toString()));
            }
            Output.requireDirectory("the plot", png);
            BenchPlot.write(BenchMain.readReports(runs), png);
            spec.commandLine().getOut().println("wrote " + Output.show(png));
            return 0;
        }
    }

}
