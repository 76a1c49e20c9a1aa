package io.xdlink.xdomain.sysfs;

import java.nio.file.Path;

/** One attribute that could not be read or parsed; the message names the file. Caught inside the view. */
final class SysfsException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    SysfsException(Path file, String why) {
        super(file + ": " + why);
        this.file = file;
    }

    Path file() {
        return file;
    }

    SysfsProblem toProblem() {
        return new SysfsProblem(file.toString(), getMessage());
    }
}
