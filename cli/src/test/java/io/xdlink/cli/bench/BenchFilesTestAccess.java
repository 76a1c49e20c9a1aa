package io.xdlink.cli.bench;

import java.nio.file.Path;

/** The FIFO maker of {@link BenchFilesTest}, for tests in other packages. */
public final class BenchFilesTestAccess {
    private BenchFilesTestAccess() {
    }

    /** A FIFO made by mkfifo(1); the calling test is skipped only where mkfifo is missing. */
    public static Path mkfifo(Path p) throws Exception {
        return BenchFilesTest.mkfifo(p);
    }
}
