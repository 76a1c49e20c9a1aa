package io.xdlink.cli.cluster;

import io.xdlink.cli.host.CliRun;
import io.xdlink.cli.json.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code xdlink cluster}: nccl-tests' output shape, xdlink's lines, the files, and every kind of bad input. */
class ClusterCommandTest {

    @Test
    void allReducePrintsNcclTestsRowsAndTheBound() {
        CliRun r = CliRun.main("cluster", "all_reduce_perf", "--hosts", "3", "-b", "8", "-e", "256K", "-f", "32",
                "-n", "2");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("#       size         count      type   redop    root     time   algbw   busbw "
                + "#wrong     time   algbw   busbw #wrong");
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#")).toList();
        assertThat(rows).hasSize(4);
        assertThat(rows.getFirst().trim().split("\\s+")).startsWith("8", "2", "float", "sum", "-1");
        assertThat(rows).allSatisfy(l -> {
            String[] f = l.trim().split("\\s+");
            assertThat(f).hasSize(13);
            assertThat(f[8]).isEqualTo("0");
            assertThat(f[12]).isEqualTo("0");
        });
        assertThat(r.out()).contains("# Out of bounds values : 0 OK").containsPattern("# Avg bus bandwidth    : [0-9.]+")
                .contains("# xdlink: analytic bound on busbw: 4.94 GB/s, set by every cable alike (Gen 3 x2, 40 Gb/s)")
                .containsPattern("# xdlink: memory per host: [0-9.]+ MiB");
    }

    @Test
    void aRefusedBondIsNamedAsThePace() {
        CliRun r = CliRun.main("cluster", "reduce_scatter_perf", "--hosts", "4", "-b", "64K", "-e", "64K", "-n", "1",
                "-w", "0", "-P", "cluster_refused_bond=cable2", "-d", "bfloat16", "-o", "max");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("cable2   host2 <-> host3  Gen 3 x1, 20 Gb/s (bond refused)")
                .contains("set by cable2 (Gen 3 x1, 20 Gb/s)").contains("bfloat16", "max");
    }

    @Test
    void jsonPlotAndCompareWork(@TempDir Path dir) throws Exception {
        Path one = dir.resolve("one.json");
        CliRun a = CliRun.main("cluster", "all_gather_perf", "--hosts", "2", "-b", "4K", "-e", "64K", "-f", "4",
                "-n", "1", "--json", one.toString(), "--label", "one cable");
        assertThat(a.exit()).as(a.err()).isZero();
        Map<?, ?> doc = (Map<?, ?>) JsonReader.parse(Files.readString(one));
        assertThat(doc.get("label")).isEqualTo("one cable");
        assertThat((List<?>) doc.get("rows")).hasSize(3);
        Path png = dir.resolve("plot.png");
        CliRun b = CliRun.main("cluster", "all_gather_perf", "--hosts", "2", "--topology", "dual-ring", "-b", "4K",
                "-e", "64K", "-f", "4", "-n", "1", "--plot", png.toString(), "--compare", one.toString());
        assertThat(b.exit()).as(b.err()).isZero();
        assertThat(Files.size(png)).isGreaterThan(1000);
        assertThat(b.out()).contains("plotted 2 run(s)");
    }

    @Test
    void aPulledCableIsReportedAndTheNextRunSucceeds() {
        CliRun r = CliRun.main("cluster", "all_reduce_perf", "--hosts", "4", "-b", "1M", "-e", "1M", "-n", "1",
                "-w", "0", "-P", "cluster_pull=cable1@100us");
        assertThat(r.out()).contains("# xdlink: cable1 pulled during the 1048576-byte run")
                .containsPattern("host1: send failed")
                .contains("the next all_reduce of 1048576 bytes succeeded on every host, 0 wrong elements");
    }

    @Test
    void badInputIsOneLineNamingIt() {
        assertThat(err("--topology", "star")).contains("--topology must be ring, chain or dual-ring, got 'star'");
        assertThat(err("--link", "gen5x2")).contains("a link is gen2x1");
        assertThat(err("--link", "gen4x1")).contains("gen4x1 does not exist");
        assertThat(err("--link", "gen3x2,gen3x1")).contains("--link lists 2 links, but a ring of 4 hosts has 4 cables");
        assertThat(err("--link", "cable9=gen3x1")).contains("there is no cable9");
        assertThat(err("--hosts", "1")).contains("--hosts must be 2..64, got 1");
        assertThat(err("-b", "12X")).contains("-b needs a size in bytes");
        assertThat(err("-e", "99999999999999999999")).contains("-e needs a size in bytes");
        assertThat(err("-b", "2M", "-e", "1M")).contains("sizes must run from -b up to -e");
        assertThat(err("-f", "1")).contains("-f must be above 1");
        assertThat(err("-d", "double")).contains("unknown data type 'double'");
        assertThat(err("-o", "prod")).contains("unknown reduction 'prod'");
        assertThat(err("-c", "2")).contains("-c is 0 or 1");
        assertThat(err("-P", "cluster_pull=cable1")).contains("cluster_pull is CABLE@TIME");
        assertThat(err("-P", "cluster_pull=cable1@5 minutes")).contains("a time is a whole number");
        assertThat(err("-P", "cluster_pull=wire@1ms")).contains("'wire' is not a cable name");
        assertThat(err("-P", "cluster_refused_bond=cable7")).contains("there is no cable7");
        assertThat(err("-P", "cluster_inflight=0")).contains("cluster_inflight");
        assertThat(err("-P", "no_such_param=1")).contains("no_such_param");
        assertThat(err("--plot", "x.svg")).contains("--plot writes a PNG");
        CliRun chain = CliRun.main("cluster", "sendrecv_perf", "--topology", "chain");
        assertThat(chain.exit()).isEqualTo(2);
        assertThat(chain.err()).contains("a chain has no cable for that");
    }

    @Test
    void compareRefusesWhatIsNotAClusterResult(@TempDir Path dir) throws Exception {
        Path bogus = dir.resolve("bogus.json");
        Files.writeString(bogus, "{\"rows\": 3}");
        assertThat(err("--plot", dir.resolve("p.png").toString(), "--compare", bogus.toString()))
                .contains("not an xdlink cluster result");
        Files.writeString(bogus, "{\"rows\": [");
        assertThat(err("--plot", dir.resolve("p.png").toString(), "--compare", bogus.toString())).contains("not JSON");
    }

    private static String err(String... args) {
        String[] all = new String[args.length + 4];
        all[0] = "cluster";
        all[1] = "all_reduce_perf";
        all[2] = "-n";
        all[3] = "1";
        System.arraycopy(args, 0, all, 4, args.length);
        CliRun r = CliRun.main(all);
        assertThat(r.exit()).as(r.out()).isEqualTo(2);
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
        return r.err();
    }
}
