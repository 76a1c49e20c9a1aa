package io.xdlink.params.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a regular file of at most a given size, or refuses it. The file's type is checked before it is opened,
 * because opening a FIFO for reading blocks until a writer appears; its size is checked from its attributes and
 * again while reading (a file can grow, and {@code /proc} files report a size of 0), so no more than the limit plus
 * one byte is ever held.
 */
public final class BoundedFile {

    /** A file that is not read: not a regular file, or larger than the limit. The message is one line. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** A regular file larger than the limit. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    private BoundedFile() {
    }

    /**
     * The bytes of {@code file}, following symbolic links.
     *
     * @throws NoSuchFileException when it does not exist
     * @throws Refused             when it is a directory, FIFO, socket or device
     * @throws TooLarge            when it holds more than {@code maxBytes} bytes
     * @throws IOException         when it cannot be read
     */
    public static byte[] read(Path file, int maxBytes) throws IOException {
        requireRegular(file);
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        if (a.size() > maxBytes) {
            throw tooLarge(maxBytes);
        }
        byte[] b;
        try (InputStream in = Files.newInputStream(file)) {
            b = in.readNBytes(maxBytes + 1);
        }
        if (b.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return b;
    }

    /** The text of {@code file} as UTF-8 (malformed bytes replaced), with the checks of {@link #read}. */
    public static String text(Path file, int maxBytes) throws IOException {
        return new String(read(file, maxBytes), StandardCharsets.UTF_8);
    }

    /**
     * Refuses anything but a regular file (after symbolic links), without opening it.
     *
     * @throws NoSuchFileException when it does not exist
     * @throws Refused             naming what it is instead
     */
    public static void requireRegular(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        if (a.isRegularFile()) {
            return;
        }
        throw new Refused(a.isDirectory() ? "a directory, not a file"
                : "not a regular file (a FIFO, socket or device), so it is not read");
    }

    /** {@code 16 MiB}, {@code 64 KiB} or {@code 100 bytes}: how limits are written in messages. */
    public static String describe(long bytes) {
        if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }

    private static TooLarge tooLarge(int maxBytes) {
        return new TooLarge("larger than " + describe(maxBytes) + ", so it is not read");
    }
}
