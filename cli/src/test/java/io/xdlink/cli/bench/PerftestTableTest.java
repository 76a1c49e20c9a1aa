package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PerftestTableTest {

    @Test
    void headersArePerftestsExactStrings() {
        assertThat(PerftestTable.RESULT_LINE).hasSize(87).matches("-+");
        assertThat(PerftestTable.bwHeader(ReportUnit.MIB_PER_SEC))
                .isEqualTo(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
        assertThat(PerftestTable.bwHeader(ReportUnit.GBIT_PER_SEC))
                .isEqualTo(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]");
        assertThat(PerftestTable.latencyHeader()).isEqualTo(" #bytes #iterations    t_min[usec]    t_max[usec]"
                + "  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ");
        assertThat(PerftestTable.latencyDurationHeader())
                .isEqualTo(" #bytes        #iterations       t_avg[usec]    tps average");
    }

    @Test
    void bandwidthRowMatchesPerftestsPrintfFormat() {
        BwResult r = new BwResult(65536, 5000, 15.84, 15.8, 0.030136, ReportUnit.GBIT_PER_SEC, true);
        // " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t     %-7.6lf"
        assertThat(PerftestTable.bwRow(r))
                .isEqualTo(" 65536      5000             15.84              15.80  \t\t     0.030136");
    }

    @Test
    void slowGigabitRowsUsePerftestsExtendedPrecisionFormat() {
        BwResult r = new BwResult(2, 5000, 0.09, 0.05, 3.1, ReportUnit.GBIT_PER_SEC, true);
        // " %-7lu    %lu           %-7.6lf            %-7.6lf            %-7.6lf"
        assertThat(PerftestTable.bwRow(r))
                .isEqualTo(" 2          5000           0.090000            0.050000            3.100000");
        BwResult mib = new BwResult(2, 5000, 0.09, 0.05, 3.1, ReportUnit.MIB_PER_SEC, true);
        assertThat(PerftestTable.bwRow(mib)).contains("0.09   ").doesNotContain("0.090000");
    }

    @Test
    void latencyRowMatchesPerftestsPrintfFormat() {
        LatencyResult r = new LatencyResult(2, 1000, 7.39, 12.5, 8.3, 8.33, 0.41, 9.98, 11.02);
        assertThat(PerftestTable.latencyRow(r)).isEqualTo(
                " 2       1000          7.39           12.50        8.30     \t       8.33        \t0.41   \t\t9.98   "
                        + " \t\t11.02  ");
    }

    @Test
    void durationLatencyRow() {
        assertThat(PerftestTable.latencyDurationRow(2, 123456, 8.333, 60000.0))
                .isEqualTo(" 2             123456            8.33           60000.00");
    }

    @Test
    void bannerCentresTheTestNameAndAlignsKeys() {
        String banner = PerftestTable.banner("RDMA_Write BW Test",
                List.of(new String[] {"Number of qps", "1"}, new String[] {"Mtu", "4096[B]"}));
        assertThat(banner.split("\n")).containsExactly(
                PerftestTable.RESULT_LINE,
                "                    RDMA_Write BW Test",
                " Number of qps   : 1",
                " Mtu             : 4096[B]",
                PerftestTable.RESULT_LINE);
    }
}
