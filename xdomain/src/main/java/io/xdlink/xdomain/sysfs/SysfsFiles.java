package io.xdlink.xdomain.sysfs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounded, read-only access to sysfs-like files. A sysfs attribute is at most one page, so anything longer is not
 * the attribute we mean; a FIFO or device node under {@code --root} would block or never end, so only regular files
 * are read; directory listings stop at a limit so a hostile tree cannot make the view allocate without end.
 */
final class SysfsFiles {
    /** One page: no sysfs attribute is longer. */
    static final int MAX_ATTRIBUTE_BYTES = 4096;

    private SysfsFiles() {
    }

    /** Whether the path exists (following links). */
    static boolean exists(Path p) {
        return Files.exists(p);
    }

    /**
     * The attribute's text with one trailing newline removed, decoded as UTF-8 (malformed bytes replaced).
     *
     * @throws SysfsException when it is missing, not a regular file, unreadable or longer than a page
     */
    static String read(Path file) throws SysfsException {
        if (!Files.exists(file)) {
            throw new SysfsException(file, "missing");
        }
        if (!Files.isRegularFile(file)) {
            throw new SysfsException(file, "not a regular file");
        }
        byte[] buf = new byte[MAX_ATTRIBUTE_BYTES + 1];
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            while (n < buf.length) {
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (NoSuchFileException e) {
            throw new SysfsException(file, "missing");
        } catch (IOException | SecurityException e) {
            throw new SysfsException(file, "cannot read: " + reason(e));
        }
        if (n > MAX_ATTRIBUTE_BYTES) {
            throw new SysfsException(file, "longer than " + MAX_ATTRIBUTE_BYTES + " bytes, not a sysfs attribute");
        }
        String s = new String(buf, 0, n, StandardCharsets.UTF_8);
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    /** Names in a directory, sorted, at most {@code limit}; an error when there are more or it cannot be listed. */
    static List<String> list(Path dir, int limit) throws SysfsException {
        if (!Files.isDirectory(dir)) {
            throw new SysfsException(dir, Files.exists(dir) ? "not a directory" : "missing");
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (names.size() == limit) {
                    throw new SysfsException(dir, "more than " + limit + " entries");
                }
                names.add(p.getFileName().toString());
            }
        } catch (IOException | DirectoryIteratorException | SecurityException e) {
            throw new SysfsException(dir, "cannot list: " + reason(e));
        }
        names.sort(null);
        return names;
    }

    /** The last name of a symbolic link's target ({@code driver -> ../../drivers/thunderbolt-net}). */
    static String linkTargetName(Path link) throws SysfsException {
        if (!Files.isSymbolicLink(link)) {
            throw new SysfsException(link, Files.exists(link, LinkOption.NOFOLLOW_LINKS)
                    ? "not a symbolic link" : "missing");
        }
        try {
            Path target = Files.readSymbolicLink(link).getFileName();
            if (target == null) {
                throw new SysfsException(link, "link has an empty target");
            }
            return target.toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            throw new SysfsException(link, "cannot read link: " + reason(e));
        }
    }

    /** The path with every link resolved. */
    static Path realPath(Path p) throws SysfsException {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            throw new SysfsException(p, "cannot resolve: " + reason(e));
        }
    }

    private static String reason(Exception e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : " " + Text.quote(m));
    }
}
