package io.xdlink.xdomain.property;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/** Random property trees that fit a block, for format/parse round trips and as seeds for mutation. */
final class RandomTrees {
    private RandomTrees() {
    }

    static PropertyDirectory root(SplittableRandom r) {
        PropertyDirectory d;
        do {
            d = directory(r, null, 0);
        } while (PropertyBlock.length(d) > PropertyBlock.MAX_DWORDS);
        return d;
    }

    private static PropertyDirectory directory(SplittableRandom r, UUID uuid, int depth) {
        int n = r.nextInt(depth == 0 ? 10 : 6);
        List<Property> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String key = key(r);
            list.add(switch (r.nextInt(depth < 3 ? 6 : 5)) {
                case 0, 1 -> new Property.Immediate(key, r.nextInt());
                case 2 -> text(r, key);
                case 3 -> {
                    byte[] b = new byte[r.nextInt(13)];
                    r.nextBytes(b);
                    yield Property.Data.of(key, b);
                }
                case 4 -> new Property.Unknown(key, unknownType(r), r.nextInt(1 << 16), r.nextInt());
                default -> new Property.Directory(key,
                        directory(r, new UUID(r.nextLong(), r.nextLong()), depth + 1));
            });
        }
        return new PropertyDirectory(uuid, list);
    }

    private static Property.Text text(SplittableRandom r, String key) {
        byte[] b = new byte[r.nextInt(20)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) r.nextInt(1, 256);
        }
        int min = (b.length + 4) / 4;
        return new Property.Text(key, b, min + (r.nextInt(4) == 0 ? r.nextInt(3) : 0));
    }

    private static int unknownType(SplittableRandom r) {
        int t;
        do {
            t = r.nextInt(256);
        } while (t == Property.TYPE_DIRECTORY || t == Property.TYPE_DATA || t == Property.TYPE_TEXT
                || t == Property.TYPE_IMMEDIATE);
        return t;
    }

    static String key(SplittableRandom r) {
        char[] c = new char[r.nextInt(9)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) (r.nextInt(8) == 0 ? r.nextInt(1, 256) : r.nextInt('a', 'z' + 1));
        }
        return new String(c);
    }
}
