package io.xdlink.bench;

import picocli.CommandLine;
import java.util.function.Supplier;

/**
 * The side-by-side harnesses' arguments, parsed with picocli as the command line's are: an unknown option, a value
 * that is not a number or one below its least is refused with one line naming it, and {@code --help} prints the
 * usage. The options object comes with its defaults set; what the arguments name replaces them.
 */
final class HarnessArgs {
    private HarnessArgs() {
    }

    /**
     * A main's parse: what {@code parse} returns, or, when it refuses the arguments, their one-line reason on
     * standard error and exit status 2 (a stack trace says nothing more to someone who mistyped an option).
     */
    static <T> T orExit(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return null;
        }
    }

    /** The least each counting option takes: warm-up rounds may be none, everything else at least one. */
    static int atLeast(String option, int value, int least) {
        if (value < least) {
            throw new IllegalArgumentException(option + " must be at least " + least + ", got " + value);
        }
        return value;
    }

    /**
     * Fills {@code options} (a picocli {@code @Command} object) from {@code args}.
     *
     * @return false when usage help was asked for and printed; the caller then stops
     * @throws IllegalArgumentException naming what was wrong
     */
    static boolean parse(String harness, Object options, String[] args) {
        CommandLine cl = new CommandLine(options).setCommandName(harness);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(harness + ": " + e.getMessage(), e);
        }
        if (cl.isUsageHelpRequested()) {
            cl.usage(System.out);
            return false;
        }
        return true;
    }
}
