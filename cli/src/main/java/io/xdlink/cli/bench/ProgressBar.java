package io.xdlink.cli.bench;

import java.io.PrintWriter;

/** A one-line progress bar on a terminal's stderr for {@code -a}: sizes done, and the size just measured. */
final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final int total;
    private int done;

    ProgressBar(PrintWriter err, int total) {
        this.err = err;
        this.total = total;
    }

    void step(long size) {
        done++;
        int filled = done * WIDTH / total;
        err.print("\r[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total + " sizes, "
                + CFormat.sizeText(size) + " done ");
        err.flush();
    }

    void done() {
        err.print("\r" + " ".repeat(WIDTH + 40) + "\r");
        err.flush();
    }
}
