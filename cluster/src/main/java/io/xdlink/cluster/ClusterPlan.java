package io.xdlink.cluster;

import io.xdlink.sim.Bonding;
import io.xdlink.sim.CableSpec;
import io.xdlink.sim.SimTopology;
import io.xdlink.xdomain.Generation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a cabling from the words a user types: {@code ring}, {@code chain} or {@code dual-ring}; a host count; a
 * link for every cable ({@code gen3x2}), one per cable in order ({@code gen3x2,gen3x1,...}) or overrides by name
 * ({@code cable3=gen2x1}); and the cables whose controllers refuse to bond. Each mistake is one line naming it.
 */
public final class ClusterPlan {
    private static final Pattern LINK = Pattern.compile("gen([234])x([12])");
    private static final Pattern OVERRIDE = Pattern.compile("cable(\\d{1,3})=(.*)");
    private static final Pattern CABLE = Pattern.compile("cable(\\d{1,3})");

    private ClusterPlan() {
    }

    /** {@code ring}, {@code chain} or {@code dual-ring}. */
    public static SimTopology.Shape shape(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        for (SimTopology.Shape sh : SimTopology.Shape.values()) {
            if (sh.label().equals(v)) {
                return sh;
            }
        }
        throw new IllegalArgumentException("--topology must be ring, chain or dual-ring, got '" + clip(s) + "'");
    }

    /** {@code gen2x1} .. {@code gen4x2}: a cable whose controllers bond when it has two lanes. */
    public static CableSpec link(String s) {
        Matcher m = LINK.matcher(s.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("a link is gen2x1, gen2x2, gen3x1, gen3x2 or gen4x2, got '" + clip(s)
                    + "'");
        }
        if (m.group(1).equals("4") && m.group(2).equals("1")) {
            throw new IllegalArgumentException("gen4x1 does not exist: Gen 4 links always run both lanes");
        }
        Generation g = Generation.valueOf("GEN" + m.group(1));
        return CableSpec.of(g).withLanes(Integer.parseInt(m.group(2)));
    }

    /**
     * The topology these words describe.
     *
     * @param links   {@code gen3x2}; or one per cable, comma-separated; or {@code cableN=genXxY} overrides
     * @param refused cable names whose far controller refuses to bond
     */
    public static SimTopology topology(String shape, int hosts, String links, List<String> refused) {
        if (hosts < 2 || hosts > DataType.MAX_EXACT_HOSTS) {
            throw new IllegalArgumentException("--hosts must be 2.." + DataType.MAX_EXACT_HOSTS + ", got " + hosts);
        }
        SimTopology.Shape sh = shape(shape);
        String[] items = links.split(",", -1);
        List<String> plain = new ArrayList<>();
        List<String[]> overrides = new ArrayList<>();
        for (String item : items) {
            Matcher m = OVERRIDE.matcher(item.trim().toLowerCase(Locale.ROOT));
            if (m.matches()) {
                overrides.add(new String[] {m.group(1), m.group(2)});
            } else {
                plain.add(item);
            }
        }
        SimTopology probe = SimTopology.of(sh, hosts, CableSpec.of(Generation.GEN3));
        int cables = probe.cableCount();
        CableSpec all = plain.size() == 1 ? link(plain.getFirst()) : CableSpec.of(Generation.GEN3);
        if (plain.size() > 1 && plain.size() != cables) {
            throw new IllegalArgumentException("--link lists " + plain.size() + " links, but a " + sh.label() + " of "
                    + hosts + " hosts has " + cables + " cables: give one link for all, one per cable, or "
                    + "cableN=genXxY");
        }
        SimTopology t = SimTopology.of(sh, hosts, all);
        CableSpec[] specs = new CableSpec[cables];
        for (int i = 0; i < cables; i++) {
            specs[i] = plain.size() == cables && cables > 1 ? link(plain.get(i)) : all;
        }
        for (String[] o : overrides) {
            specs[cableIndex("cable" + o[0], cables, "--link")] = link(o[1]);
        }
        for (String name : refused) {
            int i = cableIndex(name, cables, "cluster_refused_bond");
            if (specs[i].lanes() != 2) {
                throw new IllegalArgumentException("cluster_refused_bond: " + name.trim() + " has one lane, so there"
                        + " is no bond to refuse");
            }
            specs[i] = specs[i].withBonding(Bonding.REFUSED_BY_B);
        }
        for (int i = 0; i < cables; i++) {
            t.cable(i, specs[i]);
        }
        return t;
    }

    private static int cableIndex(String name, int cables, String what) {
        Matcher m = CABLE.matcher(name.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(what + ": '" + clip(name) + "' is not a cable name (cable0.."
                    + "cable" + (cables - 1) + ")");
        }
        int i = Integer.parseInt(m.group(1));
        if (i >= cables) {
            throw new IllegalArgumentException(what + ": there is no " + name.trim() + "; the cables are cable0.."
                    + "cable" + (cables - 1));
        }
        return i;
    }

    /** {@code CABLE@TIME}, TIME in ns, us, ms or s: the pull {@code cluster_pull} asks for, or null when empty. */
    public static PerfRun.Pull pull(String s, int cables) {
        if (s.isBlank()) {
            return null;
        }
        int at = s.indexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("cluster_pull is CABLE@TIME, e.g. cable1@200us, got '" + clip(s) + "'");
        }
        String cable = s.substring(0, at).trim().toLowerCase(Locale.ROOT);
        cableIndex(cable, cables, "cluster_pull");
        return new PerfRun.Pull(cable, duration(s.substring(at + 1)));
    }

    private static final Pattern TIME = Pattern.compile("(\\d{1,12})(ns|us|ms|s)");

    static long duration(String s) {
        Matcher m = TIME.matcher(s.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("cluster_pull: a time is a whole number with ns, us, ms or s, got '"
                    + clip(s) + "'");
        }
        long v = Long.parseLong(m.group(1));
        long unit = switch (m.group(2)) {
            case "ns" -> 1;
            case "us" -> 1_000;
            case "ms" -> 1_000_000;
            default -> 1_000_000_000;
        };
        if (v > 60_000_000_000L / unit) {
            throw new IllegalArgumentException("cluster_pull: at most a minute into the run, got '" + clip(s) + "'");
        }
        return v * unit;
    }

    private static String clip(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        StringBuilder b = new StringBuilder();
        for (char c : t.toCharArray()) {
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return b.toString();
    }
}
