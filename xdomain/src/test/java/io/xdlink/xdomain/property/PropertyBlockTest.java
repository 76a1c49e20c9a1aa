package io.xdlink.xdomain.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xdlink.xdomain.Seeds;
import io.xdlink.xdomain.property.Property.Data;
import io.xdlink.xdomain.property.Property.Directory;
import io.xdlink.xdomain.property.Property.Immediate;
import io.xdlink.xdomain.property.Property.Text;
import io.xdlink.xdomain.property.Property.Unknown;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PropertyBlockTest {
    private static final UUID NETWORK = UUID.fromString("c66189ca-1cce-4195-bdb8-49592e5f5a4f");
    private static final UUID A = UUID.fromString("01234567-89ab-cdef-0011-223344556677");
    private static final UUID B = UUID.fromString("fedcba98-7654-3210-8899-aabbccddeeff");

    /** What a Linux host with thunderbolt-net publishes, in the order Linux builds it. */
    static PropertyDirectory linuxHost(String hostname) {
        PropertyDirectory network = new PropertyDirectory(NETWORK, List.of(new Immediate("prtcid", 1),
                new Immediate("prtcvers", 1), new Immediate("prtcrevs", 1), new Immediate("prtcstns", 7)));
        return PropertyDirectory.root(List.of(new Immediate("vendorid", 0x8086), Text.of("vendorid", "Intel Corp."),
                new Immediate("deviceid", 1), new Immediate("devicerv", 0x8000_0100),
                new Directory("network", network), Text.of("deviceid", hostname), new Immediate("maxhopid", 15)));
    }

    /** Worked out by hand from the layout rules; see the offsets in the comments. */
    @Test
    void linuxHostBlockIsByteExact() {
        int[] expected = {
                0x55584401, 28, // magic, root entry dwords (7 entries)
                0x76656e64, 0x6f726964, 0x76000001, 0x8086, // @2 vendorid v
                0x76656e64, 0x6f726964, 0x74000003, 30, // @6 vendorid t -> @30
                0x64657669, 0x63656964, 0x76000001, 1, // @10 deviceid v
                0x64657669, 0x63657276, 0x76000001, 0x80000100, // @14 devicerv v
                0x6e657477, 0x6f726b00, 0x44000014, 37, // @18 network D, 4 + 4 x 4 dwords -> @37
                0x64657669, 0x63656964, 0x74000003, 33, // @22 deviceid t -> @33
                0x6d617868, 0x6f706964, 0x76000001, 15, // @26 maxhopid v
                0x496e7465, 0x6c20436f, 0x72702e00, // @30 "Intel Corp.\0"
                0x78646c69, 0x6e6b2d61, 0x00000000, // @33 "xdlink-a\0" padded
                0, // @36 one padding dword for the one child directory
                0xca8961c6, 0x9541ce1c, 0x5949b8bd, 0x4f5a5f2e, // @37 c66189ca-1cce-... each group reversed
                0x70727463, 0x69640000, 0x76000001, 1, // @41 prtcid
                0x70727463, 0x76657273, 0x76000001, 1, // @45 prtcvers
                0x70727463, 0x72657673, 0x76000001, 1, // @49 prtcrevs
                0x70727463, 0x73746e73, 0x76000001, 7}; // @53 prtcstns
        PropertyDirectory tree = linuxHost("xdlink-a");
        assertThat(PropertyBlock.format(tree)).containsExactly(expected);
        assertThat(PropertyBlock.length(tree)).isEqualTo(57);
        assertThat(PropertyBlock.parse(expected)).isEqualTo(tree);
    }

    /** Nested directories: leaves, then padding, then children one after another, recursively. */
    @Test
    void nestedLayoutIsByteExact() {
        PropertyDirectory y = new PropertyDirectory(B, List.of(new Immediate("z", 0x12345678)));
        PropertyDirectory a = new PropertyDirectory(A, List.of(Text.of("x", "hi"), new Directory("y", y)));
        PropertyDirectory root = PropertyDirectory.root(List.of(new Directory("a", a),
                Data.of("b", new byte[] {(byte) 0xAB})));
        int[] expected = {
                0x55584401, 8,
                0x61000000, 0, 0x4400000c, 12, // @2 a -> @12, 4 + 2 x 4
                0x62000000, 0, 0x64000001, 10, // @6 b -> @10
                0xAB000000, // @10 b's data
                0, // @11 padding for a
                0x67452301, 0xefcdab89, 0x33221100, 0x77665544, // @12 a's UUID
                0x78000000, 0, 0x74000001, 24, // @16 x -> @24
                0x79000000, 0, 0x44000008, 26, // @20 y -> @26
                0x68690000, // @24 "hi\0"
                0, // @25 padding for y
                0x98badcfe, 0x10325476, 0xbbaa9988, 0xffeeddcc, // @26 y's UUID
                0x7a000000, 0, 0x76000001, 0x12345678}; // @30 z
        assertThat(PropertyBlock.format(root)).containsExactly(expected);
        assertThat(PropertyBlock.parse(expected)).isEqualTo(root);
    }

    @Test
    void duplicateKeysOfDifferentTypesAreLookedUpByType() {
        PropertyDirectory root = PropertyBlock.parse(PropertyBlock.format(linuxHost("box")));
        assertThat(root.immediate("vendorid")).contains(0x8086);
        assertThat(root.text("vendorid")).contains("Intel Corp.");
        assertThat(root.immediate("deviceid")).contains(1);
        assertThat(root.text("deviceid")).contains("box");
        assertThat(root.directory("network").orElseThrow().uuid()).isEqualTo(NETWORK);
    }

    @Test
    void unknownTypesAreKeptWhole() {
        PropertyDirectory root = PropertyDirectory.root(List.of(new Unknown("future", 0x55, 3, 0xCAFE),
                new Immediate("after", 2)));
        int[] block = PropertyBlock.format(root);
        assertThat(block[4]).isEqualTo(0x55000003);
        assertThat(block[5]).isEqualTo(0xCAFE);
        assertThat(PropertyBlock.parse(block)).isEqualTo(root);
    }

    @Test
    void textIsTerminatedLikeLinux() {
        int[] block = {0x55584401, 4, 0x74000000, 0, 0x74000001, 6, 0x61626364};
        Text t = PropertyBlock.parse(block).find("t", Text.class).orElseThrow();
        assertThat(t.text()).isEqualTo("abc"); // the last byte is forced to NUL
        assertThat(t.dwords()).isEqualTo(1);
        assertThat(Text.of("k", "abc").dwords()).isEqualTo(1);
        assertThat(Text.of("k", "abcd").dwords()).isEqualTo(2);
        assertThat(Text.of("k", "").dwords()).isEqualTo(1);
    }

    @Test
    void theBlockIsAtMost500Dwords() {
        List<Property> many = new ArrayList<>();
        for (int i = 0; i < 124; i++) {
            many.add(new Immediate("k" + i, i));
        }
        assertThat(PropertyBlock.format(PropertyDirectory.root(many))).hasSize(498);
        many.add(new Immediate("one", 1));
        assertThatThrownBy(() -> PropertyBlock.format(PropertyDirectory.root(many)))
                .isInstanceOf(PropertyFormatException.class).hasMessageContaining("502");
        assertField(new int[501], "block length");
    }

    @Test
    void hostileBlocksNameTheField() {
        assertField(new int[] {0x55584400, 0}, "magic");
        assertField(new int[] {0x55584401}, "block length");
        assertField(new int[] {0x55584401, 3}, "root length");
        // an entry that runs past the end of the block
        assertField(new int[] {0x55584401, 4, 0x61000000, 0}, "root entry 0");
        // text offset past the block, and one that wraps around 32 bits
        assertField(new int[] {0x55584401, 4, 0x74000000, 0, 0x74000001, 6}, "root entry 0 't' length");
        assertField(new int[] {0x55584401, 4, 0x74000000, 0, 0x74000002, 0xFFFF_FFFF}, "root entry 0 't' length");
        assertField(new int[] {0x55584401, 4, 0x74000000, 0, 0x74000000, 2}, "root entry 0 't' length");
        assertField(new int[] {0x55584401, 4, 0x76000000, 0, 0x76000002, 2}, "root entry 0 'v' length");
        // a directory shorter than its UUID
        assertField(new int[] {0x55584401, 4, 0x44000000, 0, 0x44000003, 2, 0}, "root entry 0 'D' length");
        // a directory that contains itself
        int[] loop = {0x55584401, 4, 0x44000000, 0, 0x44000008, 6, 1, 2, 3, 4, 0x44000000, 0, 0x44000008, 6};
        assertField(loop, "root entry 0 'D' entry 0 'D' offset");
        // two entries that share one directory
        int[] shared = {0x55584401, 8, 0x44000000, 0, 0x44000004, 10, 0x44000000, 0, 0x44000004, 10, 1, 2, 3, 4};
        assertField(shared, "root entry 1 'D' offset");
    }

    /**
     * Random trees format and parse back to the same tree; random words and mutations of formatted blocks either
     * parse (and then format and parse back to the same tree) or fail naming a field.
     */
    @Test
    void randomAndMutatedBlocks() {
        long seed = Seeds.seed();
        SplittableRandom r = Seeds.random(seed);
        int parsed = 0;
        int[] formatted = null;
        for (int i = 0; i < 115_000; i++) {
            int[] block;
            if (i % 10 == 0) {
                // a fresh tree every ten cases; the cases in between mutate its block
                PropertyDirectory tree = RandomTrees.root(r);
                PropertyDirectory back;
                try {
                    formatted = PropertyBlock.format(tree);
                    back = PropertyBlock.parse(formatted);
                } catch (Throwable t) {
                    throw Seeds.failure(seed, i, t);
                }
                if (!back.equals(tree)) {
                    throw Seeds.failure(seed, i, new AssertionError(back + " != " + tree));
                }
                continue;
            } else if (i % 10 == 1) {
                block = new int[r.nextInt(40)];
                for (int k = 0; k < block.length; k++) {
                    block[k] = r.nextInt();
                }
                if (block.length > 1) {
                    block[0] = PropertyBlock.MAGIC;
                    block[1] = r.nextInt(block.length + 1);
                }
            } else {
                block = mutate(formatted, r);
            }
            try {
                PropertyDirectory tree = PropertyBlock.parse(block);
                if (!PropertyBlock.parse(PropertyBlock.format(tree)).equals(tree)) {
                    throw new AssertionError("format/parse changed " + tree);
                }
                parsed++;
            } catch (PropertyFormatException e) {
                if (e.field().isBlank()) {
                    throw Seeds.failure(seed, i, e);
                }
            } catch (Throwable t) {
                throw Seeds.failure(seed, i, t);
            }
        }
        assertThat(parsed).as("mutated blocks that still parse, seed " + seed).isPositive();
    }

    private static int[] mutate(int[] block, SplittableRandom r) {
        int[] out = block.clone();
        switch (r.nextInt(5)) {
            case 0 -> out[r.nextInt(out.length)] ^= 1 << r.nextInt(32);
            case 1 -> out = java.util.Arrays.copyOf(out, r.nextInt(out.length + 1));
            case 2 -> out[r.nextInt(out.length)] = r.nextInt();
            case 3 -> {
                // retarget an offset or a length field to a nearby value
                int at = r.nextInt(out.length);
                out[at] = (out[at] & 0xFFFF_0000) | r.nextInt(out.length + 8);
            }
            default -> {
                out = java.util.Arrays.copyOf(out, out.length + r.nextInt(1, 20));
                for (int k = block.length; k < out.length; k++) {
                    out[k] = r.nextInt();
                }
            }
        }
        return out;
    }

    private static void assertField(int[] block, String field) {
        assertThatThrownBy(() -> PropertyBlock.parse(block)).isInstanceOf(PropertyFormatException.class)
                .extracting(e -> ((PropertyFormatException) e).field()).isEqualTo(field);
    }
}
