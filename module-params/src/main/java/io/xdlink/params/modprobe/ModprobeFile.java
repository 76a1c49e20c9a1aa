package io.xdlink.params.modprobe;

import java.util.List;

/**
 * A parsed modprobe.d file: its commands in order and every problem found while reading it.
 *
 * @param name     the file name as given (a path, or a label such as {@code argument} for text typed by a user)
 * @param commands the commands, in file order
 * @param problems lines modprobe would skip or read differently from how they look
 */
public record ModprobeFile(String name, List<ModprobeCommand> commands, List<ModprobeProblem> problems) {
    public ModprobeFile {
        commands = List.copyOf(commands);
        problems = List.copyOf(problems);
    }

    /** Every {@code options} command, in file order. */
    public List<ModprobeCommand.Options> options() {
        return commands.stream()
                .filter(c -> c instanceof ModprobeCommand.Options)
                .map(c -> (ModprobeCommand.Options) c)
                .toList();
    }

    /** The {@code options} commands for one module ('-' and '_' alike), in file order. */
    public List<ModprobeCommand.Options> options(String module) {
        String m = ModprobeCommand.normalize(module);
        return options().stream().filter(o -> o.normalizedModule().equals(m)).toList();
    }
}
