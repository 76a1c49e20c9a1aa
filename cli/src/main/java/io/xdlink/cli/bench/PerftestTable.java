package io.xdlink.cli.bench;

import java.util.List;

/**
 * perftest's banner, table headers and rows, character for character ({@code perftest_parameters.h}), so an xdlink
 * row lines up under an {@code ib_write_bw} row.
 */
public final class PerftestTable {
    /** perftest's RESULT_LINE: 87 dashes. */
    public static final String RESULT_LINE = "-".repeat(87);

    static final String BW_HEADER =
            " #bytes     #iterations    BW peak[%1$s]    BW average[%1$s]   MsgRate[Mpps]";
    static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    static final String LAT_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";
    static final String PEAK_WARNING = " WARNING: BW peak won't be measured in this run.";

    private PerftestTable() {
    }

    /** The header of a bandwidth table. */
    public static String bwHeader(ReportUnit unit) {
        return BW_HEADER.formatted(unit.label());
    }

    /**
     * A bandwidth row: {@code " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t     %-7.6lf"}, or, in Gb/s
     * below 0.1 Gb/s average, perftest's extended-precision row
     * {@code " %-7lu    %lu           %-7.6lf            %-7.6lf            %-7.6lf"}.
     */
    public static String bwRow(BwResult r) {
        if (r.unit() == ReportUnit.GBIT_PER_SEC && r.average() < 0.1) {
            return " " + CFormat.left(r.size(), 7) + "    " + r.iterations() + "           "
                    + CFormat.fixed(r.peak(), 7, 6) + "            " + CFormat.fixed(r.average(), 7, 6)
                    + "            " + CFormat.fixed(r.msgRateMpps(), 7, 6);
        }
        return " " + CFormat.left(r.size(), 7) + "    " + CFormat.left(r.iterations(), 10) + "       "
                + CFormat.fixed(r.peak(), 7, 2) + "            " + CFormat.fixed(r.average(), 7, 2) + "\t\t     "
                + CFormat.fixed(r.msgRateMpps(), 7, 6);
    }

    /** The header of a latency table. */
    public static String latencyHeader() {
        return LAT_HEADER;
    }

    /**
     * A latency row: {@code " %-7lu %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f
     * \t\t%-7.2f"}.
     */
    public static String latencyRow(LatencyResult r) {
        return " " + CFormat.left(r.size(), 7) + " " + r.iterations() + "          " + CFormat.fixed(r.min(), 7, 2)
                + "        " + CFormat.fixed(r.max(), 7, 2) + "      " + CFormat.fixed(r.typical(), 7, 2)
                + "  \t       " + CFormat.fixed(r.average(), 7, 2) + "     \t" + CFormat.fixed(r.stdev(), 7, 2)
                + "\t\t" + CFormat.fixed(r.p99(), 7, 2) + " \t\t" + CFormat.fixed(r.p999(), 7, 2);
    }

    /** The header of a duration-mode latency table. */
    public static String latencyDurationHeader() {
        return LAT_DURATION_HEADER;
    }

    /** A duration-mode latency row: {@code " %-7lu       %d            %-7.2f        %-7.2f"}. */
    public static String latencyDurationRow(long size, long iterations, double averageUs, double tps) {
        return " " + CFormat.left(size, 7) + "       " + iterations + "            " + CFormat.fixed(averageUs, 7, 2)
                + "        " + CFormat.fixed(tps, 7, 2);
    }

    /**
     * The banner perftest prints before a table: the separator, the centred test name, aligned {@code Key : value}
     * lines, the separator again.
     *
     * @param testName for example {@code RDMA_Write BW Test}
     * @param lines    key/value pairs in order; a pair whose key is empty prints its value alone
     */
    public static String banner(String testName, List<String[]> lines) {
        StringBuilder sb = new StringBuilder();
        sb.append(RESULT_LINE).append('\n');
        sb.append("                    ").append(testName).append('\n');
        for (String[] kv : lines) {
            if (kv[0].isEmpty()) {
                sb.append(' ').append(kv[1]).append('\n');
            } else {
                sb.append(' ').append(CFormat.left(kv[0], 16)).append(": ").append(kv[1]).append('\n');
            }
        }
        sb.append(RESULT_LINE).append('\n');
        return sb.toString();
    }
}
