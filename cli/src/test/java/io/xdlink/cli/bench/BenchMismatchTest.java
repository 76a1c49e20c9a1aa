package io.xdlink.cli.bench;

import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.Fabrics;
import io.xdlink.rails.RailsSettings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A server and a client started with different -s or -n: both run the client's, and both say so. */
class BenchMismatchTest {

    private static BenchSettings parse(String... args) {
        BenchCommand.WriteBw cmd = new BenchCommand.WriteBw();
        new CommandLine(cmd).parseArgs(args);
        return cmd.options.settings(BenchTest.WRITE_BW, false);
    }

    @Test
    void onlyWhatBothSidesGaveIsCompared() {
        assertThat(BenchSettings.mismatches("server", List.of(4096L), 50L, List.of(8192L), 20L)).containsExactly(
                "this server was started with -s 4096 but the client with -s 8192; both run the client's sizes",
                "this server was started with -n 50 but the client with -n 20; both run the client's count");
        assertThat(BenchSettings.mismatches("client", BenchSettings.ALL_SIZES, 20L, List.of(2L), null))
                .containsExactly("this client was started with -a but the server with -s 2; both run the client's"
                        + " sizes");
        assertThat(BenchSettings.mismatches("server", null, null, List.of(8192L), 20L)).isEmpty();
        assertThat(BenchSettings.mismatches("server", List.of(8192L), 20L, List.of(8192L), 20L)).isEmpty();
    }

    @Test
    void givenOptionsAreToldApartFromDefaults() {
        BenchSettings defaults = parse();
        assertThat(defaults.sizesGiven()).isFalse();
        assertThat(defaults.itersGiven()).isFalse();
        BenchSettings given = parse("-s", "4K", "-n", "50");
        assertThat(given.sizesGiven()).isTrue();
        assertThat(given.itersGiven()).isTrue();
        assertThat(parse("-a").sizesGiven()).isTrue();
    }

    @Test
    void aServerAndAClientWithDifferentSizeAndCountBothWarnAndRunTheClients() throws Exception {
        BenchSettings client = parse("--loopback", "-s", "4096", "-n", "20");
        BenchSettings server = parse("-s", "8192", "-n", "50");
        Params params = BenchParams.load(ParamSources.of(ParamRegistry.load()).environment(Map.of()),
                client.params());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        StringWriter serverOut = new StringWriter();
        try (Fabric fabric = Fabrics.open(params).fabric()) {
            BenchMain.loopback(client, server, new PrintWriter(serverOut, true), fabric, RailsSettings.from(params),
                    BenchMain.congestion(params), new PrintWriter(out, true), new PrintWriter(err, true),
                    new PrintWriter(out, true), List.of());
        }
        assertThat(err.toString()).contains("xdlink: warning: this client was started with -s 4096 but the server"
                + " with -s 8192; both run the client's sizes\n")
                .contains("xdlink: warning: this client was started with -n 20 but the server with -n 50; both run"
                        + " the client's count\n");
        assertThat(serverOut.toString()).contains("xdlink: warning: this server was started with -s 8192 but the"
                + " client with -s 4096; both run the client's sizes\n")
                .contains("xdlink: warning: this server was started with -n 50 but the client with -n 20");
        assertThat(out.toString()).contains(" 4096       20 ");
    }
}
