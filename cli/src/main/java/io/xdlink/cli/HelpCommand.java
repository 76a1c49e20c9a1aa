package io.xdlink.cli;

import io.xdlink.xdomain.sysfs.Text;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code xdlink help [COMMAND...]}: the help of a command at any depth ({@code xdlink help bench write_bw}), where
 * picocli's own help command looks one level down only and shows the parent's help for the rest.
 */
@Command(name = "help", helpCommand = true, description = "Show the help of a command: xdlink help bench write_bw.")
public final class HelpCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and its subcommands, to explain.")
    List<String> names = new ArrayList<>();

    @Override
    public Integer call() {
        CommandLine line = spec.parent().commandLine();
        for (String name : names) {
            CommandLine sub = line.getSubcommands().get(name);
            if (sub == null) {
                throw new UsageException(line.getCommandSpec().qualifiedName() + " has no command " + Text.quote(name)
                        + (line.getSubcommands().isEmpty() ? "" : "; commands: "
                        + String.join(", ", line.getSubcommands().keySet())));
            }
            line = sub;
        }
        line.usage(spec.commandLine().getOut());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
