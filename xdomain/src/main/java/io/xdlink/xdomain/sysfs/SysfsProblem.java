package io.xdlink.xdomain.sysfs;

/**
 * A file under the bus that could not be read or parsed, and why. The message starts with the file's path so the
 * user can look at it; values quoted in it are escaped and clipped, since a peer chose many of them.
 *
 * @param file    the path as given under the root
 * @param message one line: the path, then what was expected and what was found
 */
public record SysfsProblem(String file, String message) {
    public SysfsProblem {
        if (file == null || message == null) {
            throw new IllegalArgumentException("file and message are required");
        }
    }

    @Override
    public String toString() {
        return message;
    }
}
