package io.xdlink.cli.host;

import io.xdlink.cli.Main;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs one command object as the {@code xdlink} command line would, capturing its output and exit status. */
public record CliRun(int exit, String out, String err) {
    public static CliRun of(Object command, String... args) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler(Main.commandLine().getExecutionExceptionHandler());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    /** Through {@link Main}, with real paths. */
    public static CliRun main(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
