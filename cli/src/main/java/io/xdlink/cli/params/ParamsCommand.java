package io.xdlink.cli.params;

import io.xdlink.cli.UsageException;
import io.xdlink.cli.host.HostRoot;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.ParamTable;
import io.xdlink.params.Params;
import io.xdlink.params.files.BoundedFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import io.xdlink.params.modprobe.SafeText;

/** {@code xdlink params [--markdown [--update FILE]]} and {@code xdlink params check}. */
@Command(name = "params", mixinStandardHelpOptions = true,
        description = {"Print every parameter xdlink has: name, module, type, default, range, unit, aliases and "
                + "description, and, when the configuration file or $XDLINK_PARAMS sets values, each effective value "
                + "and where it came from.",
                "Sources, lowest precedence first: defaults; " + ParamSources.DEFAULT_CONFIG + " (or the file "
                        + "$XDLINK_CONFIG names) with lines 'options xdlink name=value ...'; $XDLINK_PARAMS "
                        + "('name=value name=value'); values given by a command or the plugin."})
public final class ParamsCommand implements Callable<Integer> {
    /** The largest file --update reads; the real parameter page is tens of kilobytes. */
    private static final int MAX_README = 4 << 20;

    private final Map<String, String> environment;
    private final FileSystem fileSystem;

    @Spec
    CommandSpec spec;

    @Option(names = "--markdown",
            description = "Print the parameter table as Markdown, as docs/parameters.md shows it.")
    boolean markdown;

    @Option(names = "--update", paramLabel = "FILE", description = "With --markdown: replace the table between the "
            + "params markers in FILE (docs/parameters.md) instead of printing it.")
    String update;

    public ParamsCommand() {
        this(System.getenv(), FileSystems.getDefault());
    }

    /** With an environment and a file system, so tests can use a map and an in-memory tree. */
    public ParamsCommand(Map<String, String> environment, FileSystem fileSystem) {
        this.environment = Map.copyOf(environment);
        this.fileSystem = fileSystem;
    }

    @Override
    public Integer call() throws IOException {
        ParamRegistry registry = ParamRegistry.load();
        PrintWriter out = spec.commandLine().getOut();
        if (update != null && !markdown) {
            throw new UsageException("--update needs --markdown");
        }
        if (markdown) {
            String table = ParamTable.markdown(registry);
            if (update == null) {
                out.print(table);
            } else {
                updateReadme(fileSystem.getPath(update), table, out);
            }
            out.flush();
            return 0;
        }
        ParamSources sources = ParamSources.of(registry).environment(environment).fileSystem(fileSystem);
        Params params = sources.load();
        out.println(describeSources(sources));
        out.println();
        out.print(ParamTable.text(params));
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        for (String w : params.warnings()) {
            err.println("xdlink: warning: " + w);
        }
        err.flush();
        return 0;
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check modprobe option lines for xdlink and for the USB4 drivers our users run (odl_tb5, "
                    + "thunderbolt_ibverbs, thunderbolt_net, thunderbolt), reporting every name the kernel would "
                    + "silently ignore, with its line and a suggestion, and every bad value for xdlink.",
                    "With neither --file nor a line, checks every modprobe.d file under --root as modprobe would "
                            + "read them, and xdlink's own configuration file.",
                    "Exit status: 0 when nothing is wrong, 1 when something written would not take effect, "
                            + "2 on bad usage."})
    int check(@Option(names = "--file", paramLabel = "PATH", description = "Check this file.") String file,
              @Option(names = "--root", paramLabel = "DIR", description = "Check the modprobe.d directories under "
                      + "DIR (default: /).") String root,
              @Parameters(paramLabel = "LINE", arity = "0..*", description = "An options line, for example "
                      + "\"options odl_tb5 odl_ring_size=1024\" (quote it).") List<String> line) {
        ParamRegistry registry = ParamRegistry.load();
        ParamsCheck check = new ParamsCheck(registry, environment, spec.commandLine().getOut());
        boolean hasLine = line != null && !line.isEmpty();
        if (file != null && hasLine) {
            throw new UsageException("give either --file PATH or an options line, not both");
        }
        if (root != null && (file != null || hasLine)) {
            throw new UsageException("--root applies only when checking the modprobe.d directories; "
                    + "drop --file or the line");
        }
        if (hasLine) {
            return check.text("argument", String.join(" ", line));
        }
        if (file != null) {
            Path p = fileSystem.getPath(file);
            try {
                return check.file(p);
            } catch (NoSuchFileException e) {
                throw new UsageException("--file " + file + ": no such file");
            } catch (IOException e) {
                throw new UsageException("--file " + file + ": cannot read (" + e.getMessage() + ")");
            }
        }
        return check.host(HostRoot.resolve(fileSystem::getPath, root == null ? "/" : root));
    }

    private String describeSources(ParamSources sources) {
        ParamSources.ConfigFile cf = sources.configFile();
        StringBuilder sb = new StringBuilder("Configuration file: ");
        if (cf.path().isEmpty()) {
            sb.append("none ($").append(ParamSources.CONFIG_VARIABLE).append(" is empty)");
        } else {
            Path p = cf.path().get();
            sb.append(p).append(" (").append(cf.source().equals("default") ? "default" : "from " + cf.source())
                    .append(Files.exists(p) ? "" : "; not present").append(')');
        }
        String env = environment.get(ParamSources.PARAMS_VARIABLE);
        sb.append("\n$").append(ParamSources.PARAMS_VARIABLE).append(": ")
                .append(env == null ? "not set" : "'" + SafeText.clip(env) + "'");
        return sb.toString();
    }

    private static void updateReadme(Path readme, String table, PrintWriter out) throws IOException {
        String text;
        try {
            text = BoundedFile.text(readme, MAX_README);
        } catch (NoSuchFileException e) {
            throw new UsageException("--update " + readme + ": no such file");
        } catch (BoundedFile.Refused | BoundedFile.TooLarge e) {
            throw new UsageException("--update " + readme + ": " + e.getMessage());
        }
        String updated;
        try {
            updated = ParamTable.splice(text, table);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--update " + readme + ": " + e.getMessage());
        }
        if (updated.equals(text)) {
            out.println(readme + ": the parameter table is up to date");
            return;
        }
        Files.writeString(readme, updated, StandardCharsets.UTF_8);
        out.println(readme + ": parameter table updated");
    }
}
