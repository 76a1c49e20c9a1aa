package io.xdlink.cli.doctor;

import io.xdlink.params.files.BoundedFile;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Bounded reads of small text files and directory listings for the checks: a file under {@code --root} may be a
 * FIFO, a device or a gigabyte of junk, and a directory may hold anything.
 */
final class HostFiles {
    /** Longest configuration or sysfs text file read. */
    static final int MAX_TEXT = 64 << 10;

    private HostFiles() {
    }

    /** The text of a regular file of at most {@link #MAX_TEXT} bytes; empty when it is missing or unreadable. */
    static Optional<String> text(Path file) {
        try {
            return Optional.of(BoundedFile.text(file, MAX_TEXT));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** The first line of a sysfs attribute, trimmed. */
    static Optional<String> attribute(Path file) {
        return text(file).map(s -> {
            int nl = s.indexOf('\n');
            return (nl < 0 ? s : s.substring(0, nl)).trim();
        });
    }

    /** Entries of a directory, sorted, at most {@code limit}; empty when it is not a readable directory. */
    static List<Path> list(Path dir, int limit) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (out.size() == limit) {
                    break;
                }
                out.add(p);
            }
        } catch (IOException | DirectoryIteratorException | SecurityException e) {
            return out;
        }
        out.sort(null);
        return out;
    }

    /** The path with links resolved, or the path itself when it cannot be resolved. */
    static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
