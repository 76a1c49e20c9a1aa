package io.xdlink.cli.bench;

import io.xdlink.cli.UsageException;
import io.xdlink.params.files.BoundedFile;
import io.xdlink.xdomain.sysfs.Text;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files a benchmark reads and writes: result files read back for {@code --compare} and {@code bench plot}
 * (regular files of bounded size only), and {@code --json} and {@code --plot} outputs, written into a directory
 * that must exist already, because a mistyped directory is better refused than created.
 */
final class Output {
    /** The largest result file read; one {@code -a} run is a few kilobytes. */
    static final int MAX_RESULT_FILE = 16 << 20;
    /** {@code --json -}: write the JSON to standard output. */
    static final String STDOUT = "-";

    private Output() {
    }

    static boolean isStdout(Path p) {
        return p != null && p.toString().equals(STDOUT);
    }

    /** A path as printed in messages, escaped. */
    static String show(Path p) {
        return Text.printable(p.toString());
    }

    /**
     * Refuses an output whose directory does not exist or that names a directory, before anything runs.
     *
     * @throws UsageException naming the option and the path
     */
    static void requireDirectory(String option, Path file) {
        if (file == null || isStdout(file)) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new UsageException(option + " " + show(file) + " is a directory; name a file in it");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UsageException(option + " " + show(file) + ": the directory " + show(parent)
                    + " does not exist; create it first (xdlink does not create directories)");
        }
    }

    /** Writes an output file whose directory exists. */
    static void write(String option, Path file, byte[] bytes) {
        requireDirectory(option, file);
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new BenchException("cannot write " + show(file) + ": " + Text.printable(String.valueOf(e)));
        }
    }

    /**
     * The text of a result file.
     *
     * @throws BenchException naming the file: missing, not a regular file, too large, unreadable
     */
    static String readResultFile(Path file) {
        try {
            return BoundedFile.text(file, MAX_RESULT_FILE);
        } catch (NoSuchFileException e) {
            throw new BenchException(show(file) + ": no such file");
        } catch (BoundedFile.TooLarge e) {
            throw new BenchException(show(file) + ": " + e.getMessage() + "; not a result file");
        } catch (IOException e) {
            throw new BenchException(show(file) + ": " + Text.printable(String.valueOf(e.getMessage())));
        }
    }
}
