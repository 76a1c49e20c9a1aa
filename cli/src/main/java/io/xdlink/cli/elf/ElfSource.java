package io.xdlink.cli.elf;

import io.xdlink.params.files.BoundedFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of one ELF file, handed out as bounds-checked {@link MemorySegment}s. A file is read piece by piece (the
 * headers, then only the sections asked for), never whole: collective libraries run to hundreds of megabytes.
 */
public final class ElfSource implements AutoCloseable {
    /** The largest single piece read from a file: far above any real symbol or string table. */
    public static final long MAX_PIECE = 64L << 20;

    private final String label;
    private final long size;
    private final MemorySegment bytes;
    private final SeekableByteChannel channel;

    private ElfSource(String label, long size, MemorySegment bytes, SeekableByteChannel channel) {
        this.label = label;
        this.size = size;
        this.bytes = bytes;
        this.channel = channel;
    }

    /** Bytes already in memory (tests, fuzzing). */
    public static ElfSource of(String label, byte[] data) {
        return new ElfSource(label, data.length, MemorySegment.ofArray(data), null);
    }

    /** The first {@code length} bytes of an array: a truncated file without copying it. */
    static ElfSource of(String label, byte[] data, int length) {
        return new ElfSource(label, length, MemorySegment.ofArray(data).asSlice(0, length), null);
    }

    /** A file, opened for reading; anything but a regular file is refused before it is opened (a FIFO would block). */
    public static ElfSource open(Path file) throws IOException {
        BoundedFile.requireRegular(file);
        SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ);
        try {
            return new ElfSource(file.toString(), ch.size(), null, ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The name used in messages: the file's path. */
    public String label() {
        return label;
    }

    public long size() {
        return size;
    }

    /**
     * {@code length} bytes at {@code offset}, checked against the file.
     *
     * @param what the field or section asked for, for the message when it does not fit
     */
    public MemorySegment read(long offset, long length, String what) throws ElfException {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw new ElfException(label + ": " + what + " at offset 0x" + Long.toHexString(offset) + ", 0x"
                    + Long.toHexString(length) + " bytes, runs past the end of the file (" + size + " bytes)");
        }
        if (length > MAX_PIECE) {
            throw new ElfException(label + ": " + what + " is 0x" + Long.toHexString(length)
                    + " bytes, more than the " + (MAX_PIECE >> 20) + " MiB this reader accepts");
        }
        if (bytes != null) {
            return bytes.asSlice(offset, length);
        }
        ByteBuffer buf = ByteBuffer.allocate((int) length);
        try {
            channel.position(offset);
            while (buf.hasRemaining()) {
                if (channel.read(buf) < 0) {
                    throw new ElfException(label + ": " + what + ": the file ended early (it shrank while read?)");
                }
            }
        } catch (IOException e) {
            throw new ElfException(label + ": cannot read " + what + ": " + e.getMessage());
        }
        return MemorySegment.ofArray(buf.array());
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
