package io.xdlink.cli.bench;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.HandleFormatException;
import io.xdlink.rails.tcp.CongestionControl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The side that runs the test, as perftest's client does: it hands the server its settings, connects the queue pairs
 * to the server's listener, runs every size between barriers, and sends each row to the server so both print it.
 */
final class BenchClient extends BenchSide {
    private final BenchSettings s;

    /** @param congestion the rails' congestion control ({@code tcp_congestion}), empty for the host's default */
    BenchClient(BenchSettings s, Fabric fabric, RailsSettings rails, String congestion, PrintWriter out,
                PrintWriter err) {
        super(fabric, rails, congestion, out, err);
        this.s = s;
    }

    /** Runs against the server at {@code host:port}; returns the rows and, with a raw baseline, its rows after. */
    Outcome run(String host, int port) {
        long max = s.maxSize();
        try (Rendezvous rv = Rendezvous.connect(host, port, s.timeout());
             BenchEndpoint ep = new BenchEndpoint(openDevice(s.loopback()), s.qps(), max, cqCapacity(s))) {
            try {
                return runOn(rv, ep, host, port);
            } catch (BenchException e) {
                rv.sendQuietly(BenchRecord.error(e.getMessage()));
                throw e;
            }
        }
    }

    private Outcome runOn(Rendezvous rv, BenchEndpoint ep, String host, int port) {
        BenchRecord setup = s.toRecord().with("addr", "0x" + Long.toHexString(ep.mr().address()))
                .with("rkey", ep.mr().rkey());
        BenchDevice dev = ep.bench();
        BenchRecord ready = BenchRecord.parse(dev.away(() -> rv.exchange(setup.format())), "READY");
        serverDifferences(ready).forEach(w -> err.println("xdlink: warning: " + w));
        err.flush();
        ConnectHandle handle;
        try {
            handle = ConnectHandle.parse(HexFormat.of().parseHex(ready.get("handle")));
        } catch (HandleFormatException | IllegalArgumentException e) {
            throw new BenchException("the server's READY record has a bad listener handle: " + e.getMessage());
        }
        ep.remote(ready.getHex("addr"), (int) ready.getLong("rkey", Integer.MIN_VALUE, Integer.MAX_VALUE));
        ep.connect(handle, s.qps(), s.timeout());
        // The server's device is named after its host: when that host's session heartbeat stops, say so now.
        Supplier<String> gone = lostPeer("server", handle::device);
        rv.watch(gone);
        ep.watch(gone);
        awaitEveryCable(ep, handle.device(), s.timeout());
        dev.away(() -> rv.barrier("connected"));
        banner(s, ep, handle.device());
        // Named while the rails are up: once the run is done the server closes its side and they go.
        String label = describe(ep);

        BenchOutput o = new BenchOutput(out, s);
        o.header();
        List<BenchResult> rows = new ArrayList<>();
        List<BenchResult> raw = new ArrayList<>();
        ProgressBar bar = s.progress() ? new ProgressBar(err, s.sizes().size()) : null;
        boolean first = true;
        // In one process the server's compilers are this process's, which the warm-up counts anyway.
        LongSupplier peerCompilers = s.loopback() ? WarmUpPlateau.NO_PEER : PeerCompilers.ask(rv, dev);
        HostLoad.Window load = HostLoad.open(HostLoad.PROC);
        try (RawBaseline.Client inTurns = s.inTurns()
                ? dev.away(() -> RawBaseline.Client.connect(s, host, RawBaseline.askPort(rv), congestion)) : null) {
            for (long size : s.sizes()) {
                dev.away(() -> rv.barrier("size " + size));
                // Before each size, as perftest's -a warms up (see WarmUpPlateau.Pace for what a later size's costs).
                WarmUpPlateau.Pace pace = !s.warmUp() ? null : first ? WarmUpPlateau.Pace.FIRST
                        : WarmUpPlateau.Pace.AGAIN;
                first = false;
                if (pace != null && s.test().isBandwidth()) {
                    new BandwidthRun(ep, s, size).warmUp(pace, peerCompilers);
                }
                BenchResult r;
                if (inTurns != null) {
                    TurnRows both = turns(ep, inTurns, size, pace, peerCompilers);
                    r = both.xdlink();
                    raw.add(both.socket());
                } else {
                    r = s.test().isBandwidth() ? new BenchResult.Bw(new BandwidthRun(ep, s, size).run())
                            : LatencyRun.ping(ep, s, size, pace, peerCompilers);
                }
                BenchRecord.parse(dev.away(() -> rv.exchange(r.toRecord().format())), "OK");
                o.row(r);
                rows.add(r);
                if (bar != null) {
                    bar.step(size);
                }
            }
        }
        if (bar != null) {
            bar.done();
        }
        o.end();
        if (s.baselineRaw()) {
            dev.away(() -> {
                if (!s.inTurns()) {
                    raw.addAll(RawBaseline.client(s, host, RawBaseline.askPort(rv), congestion));
                }
                for (BenchResult row : raw) {
                    BenchRecord.parse(rv.exchange(row.toRecord().format()), "OK");
                }
            });
            o.baseline(baselinePath(host, s, congestion), rows, raw);
        }
        Optional<HostLoad> hostLoad = load.close();
        o.host(hostLoad, err);
        dev.away(() -> rv.barrier("done"));
        return new Outcome(rows, raw, label, hostLoad);
    }

    /**
     * One size in turns with the baseline ({@code --turns}): xdlink's share of the iterations, then the socket's, as
     * many times as asked; returns xdlink's row and the socket's. The server's responder answers xdlink's shares
     * and a thread of its own the socket's, so the turns need no word at the rendezvous.
     */
    private TurnRows turns(BenchEndpoint ep, RawBaseline.Client socket, long size, WarmUpPlateau.Pace warmUp,
                            LongSupplier peerCompilers) {
        BenchDevice dev = ep.bench();
        boolean latency = !s.test().isBandwidth();
        Turns.Tally ours = new Turns.Tally(size, s.iterations(), latency);
        Turns.Tally theirs = new Turns.Tally(size, s.iterations(), latency);
        LatencyRun.InTurns pings = latency ? new LatencyRun.InTurns(ep, s, size, warmUp, peerCompilers) : null;
        for (int k = 0; k < s.turns(); k++) {
            long n = Turns.share(s.iterations(), s.turns(), k);
            if (pings == null) {
                ours.add(new BandwidthRun(ep, s, size).turn(n));
                dev.away(() -> theirs.add(socket.streamTurn(size, n)));
            } else {
                ours.add(pings.turn(Math.toIntExact(n)));
                dev.away(() -> theirs.add(socket.pingTurn(size, Math.toIntExact(n))));
            }
        }
        return new TurnRows(ours.row(), theirs.row());
    }

    /** One size's two rows from a run in turns. */
    private record TurnRows(BenchResult xdlink, BenchResult socket) {
    }

    /** Where the server's own -s or -n (in its READY record when it was given them) differ from this run's. */
    private List<String> serverDifferences(BenchRecord ready) {
        String sizes = ready.values().get("ssizes");
        List<Long> theirSizes = sizes == null ? null : BenchSettings.parseSizes("READY", "ssizes", sizes);
        Long theirIters = ready.values().get("siters") == null ? null
                : ready.getLong("siters", BenchOptions.MIN_ITERS, BenchOptions.MAX_ITERS);
        return BenchSettings.mismatches("client", s.sizes(), s.iterations(), theirSizes, theirIters);
    }

    static String baselinePath(String host, BenchSettings s, String congestion) {
        boolean hosts = congestion.isEmpty() || CongestionControl.unusable(congestion).isPresent();
        return "plain TCP socket to " + host + (s.baselinePolls() ? ", both ends polling" : "")
                + (hosts ? ", the host's congestion control" : ", congestion control " + congestion) + " as the rails'"
                + ", same sizes and iterations"
                + (s.inTurns() ? ", in " + s.turns() + " turns with xdlink's" : "");
    }

    private String describe(BenchEndpoint ep) {
        var rails = ep.device().stats().rails();
        long cables = rails.stream().map(r -> r.linkId()).distinct().count();
        return s.test().command() + ", " + rails.size() + (rails.size() == 1 ? " rail" : " rails") + " on " + cables
                + (cables == 1 ? " cable" : " cables");
    }

    /** What a client run produced: its rows, the raw baseline's rows, a label for plots and the host's load. */
    record Outcome(List<BenchResult> rows, List<BenchResult> raw, String label, Optional<HostLoad> host) {
    }
}
