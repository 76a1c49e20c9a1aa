package io.xdlink.params;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The known names closest to a mistyped one. Edit distance alone misses {@code ring_size} against
 * {@code odl_ring_size} (distance 4), so a name that contains, or is contained in, a known name counts as close too.
 */
public final class Suggestions {
    private Suggestions() {
    }

    /** Up to {@code limit} close names, closest first; none when nothing is plausibly meant. */
    public static List<String> closest(String wrong, List<String> known, int limit) {
        String w = ParamSpec.normalize(wrong);
        record Scored(String name, int score) { }
        List<Scored> scored = new ArrayList<>();
        for (String k : known) {
            String n = ParamSpec.normalize(k);
            int d = distance(w, n);
            boolean contains = w.length() >= 3 && (n.contains(w) || w.contains(n));
            int threshold = Math.max(2, Math.min(w.length(), n.length()) / 3);
            if (contains || d <= threshold) {
                scored.add(new Scored(k, contains ? Math.min(d, 1) : d));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::score).thenComparing(Scored::name));
        return scored.stream().limit(limit).map(Scored::name).toList();
    }

    /** Levenshtein distance, bounded work: inputs are clipped to their first 64 characters. */
    public static int distance(String a, String b) {
        if (a.length() > 64) {
            a = a.substring(0, 64);
        }
        if (b.length() > 64) {
            b = b.substring(0, 64);
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    static String quoteList(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                sb.append(i == names.size() - 1 ? " or " : ", ");
            }
            sb.append('\'').append(names.get(i)).append('\'');
        }
        return sb.toString();
    }
}
