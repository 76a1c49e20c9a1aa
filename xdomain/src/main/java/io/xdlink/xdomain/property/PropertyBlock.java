package io.xdlink.xdomain.property;

import io.xdlink.xdomain.packet.UuidWords;
import io.xdlink.xdomain.property.Property.Data;
import io.xdlink.xdomain.property.Property.Directory;
import io.xdlink.xdomain.property.Property.Immediate;
import io.xdlink.xdomain.property.Property.Text;
import io.xdlink.xdomain.property.Property.Unknown;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Parses and formats XDomain property blocks (an array of dword values, as the block travels in
 * PROPERTIES_RESPONSE data).
 *
 * <p>Layout: word 0 is the magic 0x55584401, word 1 the number of root entry dwords. An entry is four dwords: the
 * key (8 ASCII bytes, big-endian in two words), a word with the length in bits 15:0 and the type in bits 31:24, and
 * the immediate value or the absolute dword offset of the text, data or sub-directory. A sub-directory starts with
 * its UUID (4 words, each 4-byte group reversed like every UUID in XDomain) and its declared length counts them.
 *
 * <p>Formatting follows Linux's {@code __tb_property_format_dir} exactly: a directory's entries, then its text and
 * data leaves in entry order, then one zero dword per child directory, then the child directories one after
 * another, each laid out the same way. A directory entry's length is 4 + 4 x (child entries); leaves are not
 * counted.
 *
 * <p>Parsing applies Linux's checks ({@code tb_property_entry_valid}) and the ones Linux lacks: entries must lie
 * inside the block, a sub-directory must be at least its UUID long, a text at least one dword, offsets are
 * computed without 32-bit wrap-around, and no directory may be reached twice (a peer cannot make the parser loop or
 * blow up a shared sub-tree).
 */
public final class PropertyBlock {
    public static final int MAGIC = 0x5558_4401;
    /** A whole block is at most 500 dwords; Linux refuses a longer one. */
    public static final int MAX_DWORDS = 500;

    private static final int ROOT_HEADER = 2;
    private static final int DIR_HEADER = 4;
    private static final int ENTRY = 4;

    private PropertyBlock() {
    }

    // ---------------------------------------------------------------------------------------------------- parsing

    /** Parses a whole block. */
    public static PropertyDirectory parse(int[] block) {
        if (block == null) {
            throw new PropertyFormatException("block", "no block");
        }
        if (block.length < ROOT_HEADER) {
            throw new PropertyFormatException("block length", block.length + " dwords: no root header");
        }
        if (block.length > MAX_DWORDS) {
            throw new PropertyFormatException("block length", block.length + " dwords exceed " + MAX_DWORDS);
        }
        if (block[0] != MAGIC) {
            throw new PropertyFormatException("magic", String.format("0x%08x is not 0x%08x", block[0], MAGIC));
        }
        long rootLength = block[1] & 0xFFFF_FFFFL;
        if (rootLength > block.length) {
            throw new PropertyFormatException("root length", rootLength + " dwords exceed the block's "
                    + block.length);
        }
        return new Parser(block).directory("root", null, ROOT_HEADER, (int) rootLength);
    }

    private static final class Parser {
        private final int[] block;
        private final Set<Integer> directories = new HashSet<>();

        Parser(int[] block) {
            this.block = block;
        }

        PropertyDirectory directory(String path, UUID uuid, int contentOffset, int contentLength) {
            int entries = contentLength / ENTRY;
            List<Property> list = new ArrayList<>(entries);
            for (int i = 0; i < entries; i++) {
                int at = contentOffset + i * ENTRY;
                String field = path + " entry " + i;
                if ((long) at + ENTRY > block.length) {
                    throw new PropertyFormatException(field, "at dword " + at + " runs past the block's "
                            + block.length + " dwords");
                }
                list.add(entry(field, at));
            }
            return new PropertyDirectory(uuid, list);
        }

        private Property entry(String field, int at) {
            String key = key(block[at], block[at + 1]);
            int meta = block[at + 2];
            int length = meta & 0xFFFF;
            int type = meta >>> 24;
            int value = block[at + 3];
            String named = field + " '" + key + "'";
            switch (type) {
                case Property.TYPE_DIRECTORY, Property.TYPE_DATA, Property.TYPE_TEXT -> {
                    long offset = value & 0xFFFF_FFFFL;
                    if (length > block.length || offset + length > block.length) {
                        throw new PropertyFormatException(named + " length", "dwords " + offset + ".."
                                + (offset + length) + " lie outside the block's " + block.length);
                    }
                }
                case Property.TYPE_IMMEDIATE -> {
                    if (length != 1) {
                        throw new PropertyFormatException(named + " length", "an immediate has length 1, not "
                                + length);
                    }
                }
                default -> {
                    return new Unknown(key, type, length, value);
                }
            }
            return switch (type) {
                case Property.TYPE_IMMEDIATE -> new Immediate(key, value);
                case Property.TYPE_DATA -> new Data(key, bytes(value, length));
                case Property.TYPE_TEXT -> text(named, key, value, length);
                default -> subdirectory(named, key, value, length);
            };
        }

        private Text text(String named, String key, int offset, int length) {
            if (length == 0) {
                throw new PropertyFormatException(named + " length", "a text needs at least one dword");
            }
            byte[] bytes = bytes(offset, length);
            bytes[bytes.length - 1] = 0; // Linux forces the terminator
            int end = 0;
            while (bytes[end] != 0) {
                end++;
            }
            return new Text(key, Arrays.copyOf(bytes, end), length);
        }

        private Directory subdirectory(String named, String key, int offset, int length) {
            if (length < DIR_HEADER) {
                throw new PropertyFormatException(named + " length", "a directory is at least its UUID long, "
                        + DIR_HEADER + " dwords, not " + length);
            }
            if (!directories.add(offset)) {
                throw new PropertyFormatException(named + " offset", "directory at dword " + offset
                        + " is reached twice");
            }
            UUID uuid = UuidWords.fromWords(block, offset);
            return new Directory(key, directory(named, uuid, offset + DIR_HEADER, length - DIR_HEADER));
        }

        private byte[] bytes(int offset, int length) {
            byte[] bytes = new byte[length * 4];
            for (int i = 0; i < length; i++) {
                int w = block[offset + i];
                bytes[i * 4] = (byte) (w >>> 24);
                bytes[i * 4 + 1] = (byte) (w >>> 16);
                bytes[i * 4 + 2] = (byte) (w >>> 8);
                bytes[i * 4 + 3] = (byte) w;
            }
            return bytes;
        }
    }

    /** The key in two words: 8 bytes, big-endian, up to the first NUL (Linux terminates at 8 bytes). */
    static String key(int hi, int lo) {
        byte[] b = {(byte) (hi >>> 24), (byte) (hi >>> 16), (byte) (hi >>> 8), (byte) hi,
                (byte) (lo >>> 24), (byte) (lo >>> 16), (byte) (lo >>> 8), (byte) lo};
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.ISO_8859_1);
    }

    // ------------------------------------------------------------------------------------------------- formatting

    /** The number of dwords {@link #format} produces for {@code root}. */
    public static int length(PropertyDirectory root) {
        requireRoot(root);
        return recursiveLength(root);
    }

    /** Formats a root directory into a block, laid out as Linux lays it out; at most {@value #MAX_DWORDS} dwords. */
    public static int[] format(PropertyDirectory root) {
        int length = length(root);
        if (length > MAX_DWORDS) {
            throw new PropertyFormatException("block length", length + " dwords exceed " + MAX_DWORDS);
        }
        int[] block = new int[length];
        int end = formatDirectory(root, block, 0);
        if (end != length) {
            throw new IllegalStateException("formatted " + end + " dwords, planned " + length);
        }
        return block;
    }

    private static void requireRoot(PropertyDirectory root) {
        if (root == null || !root.isRoot()) {
            throw new IllegalArgumentException("a block is formatted from a root directory (no UUID)");
        }
    }

    /** Header plus entries of one directory, without leaves or children. */
    private static int ownLength(PropertyDirectory dir) {
        return (dir.isRoot() ? ROOT_HEADER : DIR_HEADER) + ENTRY * dir.properties().size();
    }

    /** Leaves of one directory plus one padding dword per child directory. */
    private static int dataLength(PropertyDirectory dir) {
        int n = 0;
        for (Property p : dir.properties()) {
            n += switch (p) {
                case Text t -> t.dwords();
                case Data d -> d.dwords();
                case Directory d -> 1;
                case Immediate i -> 0;
                case Unknown u -> 0;
            };
        }
        return n;
    }

    private static int recursiveLength(PropertyDirectory dir) {
        int n = ownLength(dir) + dataLength(dir);
        for (Property p : dir.properties()) {
            if (p instanceof Directory d) {
                n += recursiveLength(d.directory());
            }
        }
        return n;
    }

    private static int formatDirectory(PropertyDirectory dir, int[] block, int start) {
        int own = ownLength(dir);
        int dataOffset = start + own;
        int dirEnd = start + own + dataLength(dir);
        int entry;
        if (dir.isRoot()) {
            block[start] = MAGIC;
            block[start + 1] = own - ROOT_HEADER;
            entry = start + ROOT_HEADER;
        } else {
            UuidWords.put(block, start, dir.uuid());
            entry = start + DIR_HEADER;
        }
        for (Property p : dir.properties()) {
            keyWords(p.key(), block, entry);
            int length;
            int value;
            switch (p) {
                case Immediate i -> {
                    length = 1;
                    value = i.value();
                }
                case Text t -> {
                    length = t.dwords();
                    value = dataOffset;
                    putBytes(block, dataOffset, t.value());
                    dataOffset += length;
                }
                case Data d -> {
                    length = d.dwords();
                    value = dataOffset;
                    putBytes(block, dataOffset, d.bytes());
                    dataOffset += length;
                }
                case Directory d -> {
                    length = ownLength(d.directory());
                    value = dirEnd;
                    dirEnd = formatDirectory(d.directory(), block, dirEnd);
                }
                case Unknown u -> {
                    length = u.length();
                    value = u.value();
                }
            }
            block[entry + 2] = p.type() << 24 | length;
            block[entry + 3] = value;
            entry += ENTRY;
        }
        return dirEnd;
    }

    private static void keyWords(String key, int[] block, int at) {
        byte[] b = Arrays.copyOf(key.getBytes(StandardCharsets.ISO_8859_1), 8);
        block[at] = (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
        block[at + 1] = (b[4] & 0xFF) << 24 | (b[5] & 0xFF) << 16 | (b[6] & 0xFF) << 8 | (b[7] & 0xFF);
    }

    /** Writes bytes big-endian into words from {@code at}; the rest of the last word stays zero. */
    private static void putBytes(int[] block, int at, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            block[at + i / 4] |= (bytes[i] & 0xFF) << (24 - 8 * (i % 4));
        }
    }
}
