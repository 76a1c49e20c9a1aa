package io.xdlink.cli.bench;

import io.xdlink.cli.host.CliRun;
import org.junit.jupiter.api.Test;

import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.rails.RailsParams;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad command lines: each is one line naming what was wrong, exit status 2, no stack trace, nothing run. */
class BenchOptionsTest {

    private static void refused(String expected, String... args) {
        CliRun r = CliRun.main(args);
        assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
        assertThat(r.err().strip().lines().toList()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains(expected).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknownOptionsAreOneLine() {
        refused("Unknown option: '--bogus'", "bench", "write_bw", "--bogus");
        refused("Unknown option: '-z'", "bench", "write_lat", "-z", "3");
    }

    @Test
    void sizesAndCountsOutOfRange() {
        refused("-s must be between 1 and 67108864, got 134217728", "bench", "write_bw", "-s", "128M");
        refused("-s needs a size in bytes", "bench", "write_bw", "-s", "lots");
        refused("-s must be between 1 and 67108864, got 0", "bench", "write_bw", "-s", "0");
        refused("-n must be between 5 and 100000000, got 2", "bench", "write_bw", "-n", "2");
        refused("-q must be between 1 and 64, got 0", "bench", "write_bw", "-q", "0");
        refused("-p must be between 1 and 65535, got 70000", "bench", "write_bw", "-p", "70000");
        refused("-D must be between 1 and 3600", "bench", "write_bw", "-D", "0");
        refused("-Q must be between 1 and 1024", "bench", "send_bw", "-Q", "5000");
        refused("-t must be between 1 and 15000", "bench", "send_bw", "-t", "0");
        refused("Invalid value for option '--iters'", "bench", "write_bw", "-n", "99999999999999999999");
    }

    @Test
    void contradictionsAreNamed() {
        refused("-a runs every size; drop -s \"4096\"", "bench", "write_bw", "-a", "-s", "4096");
        refused("-D runs one size for a time", "bench", "write_bw", "-a", "-D", "5");
        refused("-D and -n both say when to stop", "bench", "write_bw", "-D", "5", "-n", "100");
        refused("--loopback runs both ends here", "bench", "write_bw", "--loopback", "10.0.0.1");
        refused("--link chooses the simulated cable and needs --loopback", "bench", "write_bw", "--link", "gen3x1");
        refused("--link must be gen2x1, gen2x2, gen3x1, gen3x2 or gen4x2, got \"usb3\"", "bench", "write_bw",
                "--loopback", "--link", "usb3");
        refused("--link gen4x1 does not exist", "bench", "write_bw", "--loopback", "--link", "gen4x1");
        refused("--baseline knows 'raw' (a blocking socket) and 'poll' (a polling one), got \"ipoib\"", "bench",
                "write_bw", "--baseline", "ipoib");
        refused("--plot writes a PNG", "bench", "write_bw", "--plot", "out.svg");
        refused("--compare adds runs to a plot", "bench", "write_bw", "--compare", "a.json");
        refused("latency tests ping-pong on one queue pair; drop -q 2", "bench", "write_lat", "-q", "2");
    }

    private static BenchSettings parse(String... args) {
        BenchCommand.WriteBw cmd = new BenchCommand.WriteBw();
        new CommandLine(cmd).parseArgs(args);
        return cmd.options.settings(BenchTest.WRITE_BW, false);
    }

    private static Params load(String... args) {
        return BenchParams.load(ParamSources.of(ParamRegistry.load()).environment(Map.of()), parse(args).params());
    }

    @Test
    void theLaterOfTwoSettingsOfOneParameterWinsInAnySpellingAndTheWarningNamesIt() {
        String[][] cases = {
                {"-P", "stripe_min_bytes=1K", "-P", "stripe_min_bytes=2K"},
                {"-P", "STRIPE-MIN-BYTES=1K", "--param", "stripe_min_bytes=2K"},
                {"-Pstripe_min_bytes=1K", "-P", "Stripe_Min_Bytes=2K"},
                {"--stripe-min", "1K", "-P", "stripe_min_bytes=2K"},
                {"-P", "stripe_min_bytes=1K", "--stripe-min=2K"},
                {"-P", "ring_size=64", "--stripe-min", "1K", "-P", "ring_size=128", "-P", "STRIPE_MIN_BYTES=2K"},
        };
        for (String[] c : cases) {
            // Twenty times: the order of a hash map would let either value win now and then.
            for (int i = 0; i < 20; i++) {
                Params p = load(c);
                assertThat(p.get(RailsParams.STRIPE_MIN_BYTES)).as(String.join(" ", c)).isEqualTo(2048L);
                assertThat(p.warnings()).as(String.join(" ", c))
                        .anyMatch(w -> w.contains("'stripe_min_bytes' is set again; 2K here replaces 1K"));
            }
        }
        assertThat(load("--stripe-min", "1K", "-P", "stripe-min-bytes=2K").warnings()).containsExactly("command line:"
                + " 'stripe_min_bytes' is set again; 2K here replaces 1K from command line (the later setting wins)");
        Params once = load("--stripe-min", "1K");
        assertThat(once.get(RailsParams.STRIPE_MIN_BYTES)).isEqualTo(1024L);
        assertThat(once.warnings()).isEmpty();
    }

    @Test
    void aParameterThatLoopbackImpliesIsOverriddenByMinusPWithoutAWarning() {
        Params p = load("--loopback", "--link", "gen2x1", "-P", "loopback_gen=gen4", "-P", "loopback=2");
        assertThat(p.get(io.xdlink.sim.SimParams.LOOPBACK)).isEqualTo(2L);
        assertThat(p.warnings()).isEmpty();
    }

    @Test
    void echoedValuesHaveControlsAndBidirectionalOverridesEscaped() {
        refused("-s needs a size in bytes (K and M suffixes allowed), got \"1\\u202eM\"", "bench", "write_bw", "-s",
                "1\u202eM");
        refused("--link must be gen2x1, gen2x2, gen3x1, gen3x2 or gen4x2, got \"gen3\\x1b[2Jx2\"", "bench",
                "write_bw", "--loopback", "--link", "gen3\u001b[2Jx2");
        refused("--rail needs an interface name or an address, got \"\\u2067" + "x".repeat(34) + "...\"", "bench",
                "write_bw", "--rail", "\u2067" + "x".repeat(70));
        refused("--loopback runs both ends here; drop the server address \"a\\x07b\"", "bench", "write_bw",
                "--loopback", "a\u0007b");
        refused("-P needs NAME=VALUE, got \"\\u202d\"", "bench", "write_bw", "-P", "\u202d");
        for (String bad : List.of("\u202e", "\u2066", "\u001b", "\u0007")) {
            CliRun r = CliRun.main("bench", "write_bw", "-s", "1" + bad);
            assertThat(r.err()).doesNotContain(bad);
        }
    }

    @Test
    void aParamWithoutAValueIsOneLine() {
        refused("-P needs NAME=VALUE, got \"ring_size\"", "bench", "write_bw", "-P", "ring_size");
        refused("-P needs NAME=VALUE, got \"=4\"", "bench", "write_bw", "-P", "=4");
        refused("Missing required parameter for option '--param'", "bench", "write_bw", "-P");
        refused("Missing required parameter for option '--stripe-min'", "bench", "write_bw", "--stripe-min");
    }

    @Test
    void unknownParametersSuggestTheRightName() {
        refused("unknown parameter 'stripe_min'", "bench", "write_bw", "--loopback", "-P", "stripe_min=1M");
    }

    @Test
    void defaultsArePerftests() {
        BenchOptions o = new BenchOptions();
        BenchSettings bw = o.settings(BenchTest.WRITE_BW, false);
        assertThat(bw.sizes()).containsExactly(65536L);
        assertThat(bw.iterations()).isEqualTo(5000);
        assertThat(bw.txDepth()).isEqualTo(128);
        assertThat(bw.cqMod()).isEqualTo(100);
        assertThat(bw.port()).isEqualTo(18515);
        assertThat(bw.unit()).isEqualTo(ReportUnit.MIB_PER_SEC);
        assertThat(bw.isServer()).isTrue();
        BenchSettings lat = o.settings(BenchTest.SEND_LAT, false);
        assertThat(lat.sizes()).containsExactly(2L);
        assertThat(lat.iterations()).isEqualTo(1000);
        assertThat(lat.txDepth()).isEqualTo(1);
        assertThat(BenchSettings.ALL_SIZES).hasSize(23).startsWith(2L).endsWith(8L << 20);
        assertThat(BenchOptions.parseSize("64K")).isEqualTo(65536);
        assertThat(BenchOptions.parseSize("8m")).isEqualTo(8L << 20);
    }

    @Test
    void everyRunWarmsUpUnlessToldNotToAndTheServerFollowsTheClient() {
        assertThat(new BenchOptions().settings(BenchTest.WRITE_BW, false).warmUp()).isTrue();
        assertThat(new BenchOptions().settings(BenchTest.WRITE_LAT, false).warmUp()).isTrue();
        BenchOptions loop = new BenchOptions();
        loop.loopback = true;
        assertThat(loop.settings(BenchTest.WRITE_BW, false).warmUp()).isTrue();
        loop.warmUp = false;
        assertThat(loop.settings(BenchTest.WRITE_BW, false).warmUp()).isFalse();
        BenchOptions client = new BenchOptions();
        client.server = "10.0.0.1";
        client.warmUp = false;
        BenchSettings cold = client.settings(BenchTest.WRITE_LAT, false);
        assertThat(cold.warmUp()).isFalse();
        // The server learns from the SETUP whether the client warms up.
        BenchOptions server = new BenchOptions();
        assertThat(server.settings(BenchTest.WRITE_LAT, false)
                .adopt(BenchRecord.parse(cold.toRecord().format(), "SETUP")).warmUp()).isFalse();
        client.warmUp = true;
        BenchSettings warm = client.settings(BenchTest.WRITE_LAT, false);
        BenchSettings adopted = server.settings(BenchTest.WRITE_LAT, false)
                .adopt(BenchRecord.parse(warm.toRecord().format(), "SETUP"));
        assertThat(adopted.warmUp()).isTrue();
    }

    @Test
    void theServerAdoptsTheClientsTestButNotADifferentOne() {
        BenchOptions client = new BenchOptions();
        client.server = "10.0.0.1";
        client.all = true;
        client.iterations = 7L;
        client.gbits = true;
        BenchSettings c = client.settings(BenchTest.WRITE_BW, false);
        BenchSettings server = new BenchOptions().settings(BenchTest.WRITE_BW, false);
        BenchSettings agreed = server.adopt(BenchRecord.parse(c.toRecord().format(), "SETUP"));
        assertThat(agreed.sizes()).isEqualTo(BenchSettings.ALL_SIZES);
        assertThat(agreed.iterations()).isEqualTo(7);
        assertThat(agreed.unit()).isEqualTo(ReportUnit.GBIT_PER_SEC);
        assertThat(agreed.isServer()).isTrue();

        BenchSettings latServer = new BenchOptions().settings(BenchTest.WRITE_LAT, false);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> latServer.adopt(BenchRecord.parse(c.toRecord().format(), "SETUP")))
                .isInstanceOf(BenchException.class).hasMessageContaining("the client runs write_bw but this server "
                        + "was started for write_lat");
        for (String hostile : List.of("SETUP test=write_bw sizes=2,x iters=5 duration=0 qps=1 txdepth=1 cqmod=1 "
                        + "gbits=0 raw=0",
                "SETUP test=write_bw sizes=" + "2,".repeat(40) + "2 iters=5 duration=0 qps=1 txdepth=1 cqmod=1 "
                        + "gbits=0 raw=0",
                "SETUP test=write_bw sizes=2 iters=5 duration=0 qps=999 txdepth=1 cqmod=1 gbits=0 raw=0",
                "SETUP test=nope sizes=2 iters=5 duration=0 qps=1 txdepth=1 cqmod=1 gbits=0 raw=0")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> server.adopt(BenchRecord.parse(hostile, "SETUP"))).as(hostile)
                    .isInstanceOf(BenchException.class);
        }
    }

    @Test
    void turnsNeedTheBaselineAndIterationsToShareAndNoDuration() {
        refused("--turns alternates xdlink with the plain socket; give --baseline raw or poll too", "bench",
                "write_lat",
                "--turns", "4");
        refused("--turns must be between 1 and 1000, got 0", "bench", "write_lat", "--baseline", "raw", "--turns",
                "0");
        refused("--turns must be between 1 and 1000, got 1001", "bench", "write_lat", "--baseline", "raw",
                "--turns", "1001");
        refused("--turns splits -n's iterations; it cannot be combined with -D", "bench", "write_bw", "--baseline",
                "raw", "--turns", "2", "-D", "5");
        refused("--turns 10 needs at least as many iterations, got -n 9", "bench", "write_bw", "--baseline", "raw",
                "--turns", "10", "-n", "9");
        refused("Invalid value for option '--turns'", "bench", "write_bw", "--baseline", "raw", "--turns", "two");
    }

    @Test
    void turnsTravelToTheServerAndAnOlderClientsSetupMeansOne() {
        BenchSettings one = parse("--baseline", "raw");
        assertThat(one.turns()).isEqualTo(1);
        assertThat(one.inTurns()).isFalse();
        BenchSettings c = parse("10.0.0.1", "--baseline", "raw", "--turns", "8");
        assertThat(c.inTurns()).isTrue();
        BenchSettings server = new BenchOptions().settings(BenchTest.WRITE_BW, false);
        BenchSettings agreed = server.adopt(BenchRecord.parse(c.toRecord().format(), "SETUP"));
        assertThat(agreed.turns()).isEqualTo(8);
        assertThat(agreed.inTurns()).isTrue();
        String older = c.toRecord().format().replace(" turns=8", "");
        assertThat(older).doesNotContain("turns");
        assertThat(server.adopt(BenchRecord.parse(older, "SETUP")).turns()).isEqualTo(1);
        for (String turns : List.of("0", "1001", "-3", "x", "")) {
            String hostile = c.toRecord().format().replace(" turns=8", " turns=" + turns);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> server.adopt(BenchRecord.parse(hostile, "SETUP"))).as(hostile)
                    .isInstanceOf(BenchException.class);
        }
    }

    @Test
    void aPollingBaselineTravelsToTheServerAndOnlyAsAValueItKnows() {
        BenchSettings server = new BenchOptions().settings(BenchTest.WRITE_LAT, false);
        for (String mode : List.of("raw", "poll")) {
            BenchOptions o = new BenchOptions();
            new CommandLine(o).parseArgs("10.0.0.1", "--baseline", mode);
            BenchSettings c = o.settings(BenchTest.WRITE_LAT, false);
            assertThat(c.baselineRaw()).isTrue();
            assertThat(c.baselinePolls()).as(mode).isEqualTo(mode.equals("poll"));
            BenchSettings agreed = server.adopt(BenchRecord.parse(c.toRecord().format(), "SETUP"));
            assertThat(agreed.baselineRaw()).isTrue();
            assertThat(agreed.baselinePolls()).as(mode).isEqualTo(mode.equals("poll"));
        }
        BenchSettings none = server.adopt(BenchRecord.parse(
                new BenchOptions().settings(BenchTest.WRITE_LAT, false).toRecord().format(), "SETUP"));
        assertThat(none.baselineRaw()).isFalse();
        assertThat(none.baselinePolls()).isFalse();
        BenchOptions o = new BenchOptions();
        new CommandLine(o).parseArgs("10.0.0.1", "--baseline", "poll");
        String setup = o.settings(BenchTest.WRITE_LAT, false).toRecord().format();
        assertThat(setup).contains(" raw=2");
        for (String raw : List.of("3", "-1", "x")) {
            String hostile = setup.replace(" raw=2", " raw=" + raw);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> server.adopt(BenchRecord.parse(hostile, "SETUP"))).as(hostile)
                    .isInstanceOf(BenchException.class).hasMessageContaining("raw");
        }
    }

    @Test
    void aSetupOfEverySizeWithTheBaselineInTurnsStillFitsARecord() {
        BenchOptions client = new BenchOptions();
        client.server = "10.0.0.1";
        client.all = true;
        client.iterations = BenchOptions.MAX_ITERS;
        client.txDepth = BenchOptions.MAX_TX_DEPTH;
        client.baseline = "raw";
        client.turns = BenchOptions.MAX_TURNS;
        for (BenchTest test : BenchTest.values()) {
            client.qps = test.isBandwidth() ? BenchOptions.MAX_QPS : 1;
            BenchSettings c = client.settings(test, false);
            // The client adds its buffer's address and key, as long as they can be.
            String setup = c.toRecord().with("addr", "0x" + Long.toHexString(Long.MAX_VALUE))
                    .with("rkey", Integer.MIN_VALUE).format();
            assertThat(setup.length()).as(setup).isLessThan(Rendezvous.RECORD_BYTES);
            assertThat(setup).contains(" sizes=all ");
            BenchSettings agreed = new BenchOptions().settings(test, false)
                    .adopt(BenchRecord.parse(setup, "SETUP"));
            assertThat(agreed.sizes()).isEqualTo(BenchSettings.ALL_SIZES);
            assertThat(agreed.turns()).isEqualTo(BenchOptions.MAX_TURNS);
        }
    }

    @Test
    void sizesTravelAsAllOrAsAListAndAnythingElseIsRefusedNamingTheRecord() {
        assertThat(BenchSettings.sizesField(BenchSettings.ALL_SIZES)).isEqualTo("all");
        assertThat(BenchSettings.sizesField(List.of(2L, 65536L))).isEqualTo("2,65536");
        assertThat(BenchSettings.parseSizes("READY", "ssizes", "all")).isEqualTo(BenchSettings.ALL_SIZES);
        assertThat(BenchSettings.parseSizes("READY", "ssizes", "2,65536")).containsExactly(2L, 65536L);
        for (String hostile : List.of("ALL", "all,2", "", "2,,4", "-2", "0x10", "2," + "4,".repeat(23) + "4")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> BenchSettings.parseSizes("READY", "ssizes", hostile)).as(hostile)
                    .isInstanceOf(BenchException.class).hasMessageContaining("the peer's READY record");
        }
    }
}
