package io.xdlink.cli;

import io.xdlink.cli.host.CliRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @Test
    void noArgumentsPrintsTheUsageOnStandardErrorAndExits2() {
        CliRun r = CliRun.main();
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("Usage: xdlink").contains("bench", "doctor", "params");
    }

    @Test
    void helpReachesASubcommandOfASubcommand() {
        CliRun r = CliRun.main("help", "bench", "write_bw");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("Usage: xdlink bench write_bw").contains("RDMA WRITE bandwidth", "--rail");
    }

    @Test
    void helpOfOneLevelAndOfNothing() {
        assertThat(CliRun.main("help", "bench").out()).startsWith("Usage: xdlink bench");
        assertThat(CliRun.main("help").out()).startsWith("Usage: xdlink");
    }

    @Test
    void helpOfAnUnknownCommandIsOneLineListingTheKnownOnes() {
        CliRun r = CliRun.main("help", "bench", "write_bv\u202e");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("xdlink: xdlink bench has no command \"write_bv\\u202e\"; commands: "
                + "write_bw, write_lat, send_bw, send_lat, plot\n");
    }
}
