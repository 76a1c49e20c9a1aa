package io.xdlink.cli.bench;

import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.Fabrics;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.host.PortTakenException;
import io.xdlink.rails.tcp.CongestionControl;
import io.xdlink.rails.tcp.TcpParams;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.io.Writer;

/** Runs a validated benchmark as server, client, or both ends in this process ({@code --loopback}). */
final class BenchMain {
    private BenchMain() {
    }

    static int run(BenchSettings s, PrintWriter out, PrintWriter err) {
        Params params = BenchParams.load(s.params());
        // Everything the run will need from files is checked before it starts, not after minutes of measuring.
        List<BenchReport> compare = readReports(s.compare());
        Output.requireDirectory("--json", s.json());
        Output.requireDirectory("--plot", s.plot());
        // With --json -, standard output carries the JSON alone; the table goes to standard error.
        PrintWriter table = Output.isStdout(s.json()) ? err : out;
        params.warnings().forEach(w -> err.println("xdlink: warning: " + w));
        String congestion = congestion(params);
        if (!s.loopback() || s.baselineRaw()) {
            // Rails over TCP, or a baseline socket, would quietly keep the host's default.
            CongestionControl.unusable(congestion).ifPresent(w -> err.println("xdlink: warning: " + w));
        }
        err.flush();
        Fabric opened = open(params, s.loopback());
        RailsSettings rails;
        try {
            rails = RailsSettings.from(params, opened);
        } catch (RuntimeException refused) {
            opened.close();
            throw refused;
        }
        try (Fabric fabric = RailFilter.apply(opened, s.rails())) {
            if (!s.rails().isEmpty()) {
                RailFilter.requireKnown(s.loopback() ? peersOf(opened, s.timeout()) : opened.peers(), s.rails());
            }
            if (s.loopback()) {
                loopback(s, s, new PrintWriter(Writer.nullWriter()), fabric, rails, congestion, table, err, out,
                        compare);
            } else if (s.isServer()) {
                server(s, fabric, rails, congestion, table, out, err, compare);
            } else {
                BenchClient.Outcome o = new BenchClient(s, fabric, rails, congestion, table, err)
                        .run(s.server(), s.port());
                results(s, o.label(), o.rows(), o.raw(), o.host(), table, out, compare);
            }
        }
        return 0;
    }

    private static Fabric open(Params params, boolean loopback) {
        try {
            return Fabrics.open(params).fabric();
        } catch (IOException e) {
            throw new BenchException("no fabric: " + e.getMessage() + (loopback || e.getCause() instanceof PortTakenException
                    ? "" : "; with no USB4 hardware, run both ends here: xdlink bench <test> --loopback"));
        }
    }

    /** The rails' congestion control, which the raw baseline's sockets take too; empty for the host's default. */
    static String congestion(Params params) {
        return params.get(TcpParams.CONGESTION_CONTROL).strip();
    }

    private static void server(BenchSettings s, Fabric fabric, RailsSettings rails, String congestion,
                               PrintWriter out, PrintWriter stdout, PrintWriter err, List<BenchReport> compare) {
        BenchServer server = new BenchServer(s, fabric, rails, congestion, out, err);
        BenchServer.Prepared prepared = server.prepare();
        BenchServer.Served served;
        // Said once the port is bound, so a client started on seeing it is never refused.
        try (Rendezvous rv = prepared.device().away(() -> Rendezvous.listen(null, s.port(), Duration.ZERO,
                s.timeout(), bound -> {
                    out.println("************************************");
                    out.println("* Waiting for client to connect... *");
                    out.println("************************************");
                    out.flush();
                }, line -> {
                    err.println(line);
                    err.flush();
                }))) {
            served = server.serve(prepared, rv, null);
        } catch (RuntimeException e) {
            prepared.listener().close();
            prepared.device().close();
            throw e;
        }
        results(s, s.test().command() + " (server)", served.rows(), List.of(), served.host(), out, stdout, compare);
    }

    /**
     * Both ends in this process: the server on the simulated peer's side of the fabric, on its own thread, started
     * as {@code serverTemplate} says (the same options as the client, for {@code --loopback}) and printing to
     * {@code serverOut}; the client here, printing. They meet over a rendezvous on 127.0.0.1 exactly as two hosts do.
     */
    static void loopback(BenchSettings s, BenchSettings serverTemplate, PrintWriter serverOut, Fabric fabric,
                         RailsSettings rails, String congestion, PrintWriter out, PrintWriter err,
                         PrintWriter stdout, List<BenchReport> compare) {
        UUID peer = awaitPeer(fabric, s.timeout());
        Fabric far = fabric.far(peer).orElseThrow(
                () -> new BenchException("the fabric offers no far side for peer " + peer + "; is loopback on?"));
        BenchServer server = new BenchServer(serverTemplate, far, rails, congestion, serverOut, err);
        BenchServer.Prepared prepared = server.prepare();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        AtomicReference<RuntimeException> serverFailure = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().name("xdlink-bench-loopback-server").daemon().start(() -> {
            try (Rendezvous rv = prepared.device().away(
                    () -> Rendezvous.listen("127.0.0.1", 0, s.timeout(), s.timeout(), port::complete))) {
                server.serve(prepared, rv, "127.0.0.1");
            } catch (RuntimeException e) {
                serverFailure.set(e);
                port.completeExceptionally(e);
            }
        });
        int p;
        try {
            p = port.get(s.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new BenchException(e.getCause().toString());
        } catch (TimeoutException | InterruptedException e) {
            throw new BenchException("the loopback server did not start");
        }
        BenchClient.Outcome o;
        try {
            o = new BenchClient(s, fabric, rails, congestion, out, err).run("127.0.0.1", p);
        } catch (BenchException e) {
            // When the server gave up first, all the client sees is its requests flushed or its rail closed: say
            // why the server gave up, which is where the run went wrong.
            join(thread, s);
            RuntimeException serverSide = serverFailure.get();
            if (serverSide != null && serverSide != e && serverSide.getMessage() != null) {
                throw new BenchException(e.getMessage() + "; the server side had failed: " + serverSide.getMessage(),
                        e);
            }
            throw e;
        } finally {
            join(thread, s);
        }
        if (serverFailure.get() != null) {
            throw serverFailure.get();
        }
        results(s, o.label() + ", loopback", o.rows(), o.raw(), o.host(), out, stdout, compare);
    }

    private static void join(Thread thread, BenchSettings s) {
        try {
            thread.join(s.timeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The simulated peer appears once XDomain discovery has enumerated it. */
    private static UUID awaitPeer(Fabric fabric, Duration timeout) {
        return peersOf(fabric, timeout).getFirst().domain();
    }

    /** The peers of a fabric, waiting for the first to appear. */
    private static List<PeerInfo> peersOf(Fabric fabric, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<PeerInfo> peers = fabric.peers();
            if (!peers.isEmpty()) {
                return peers;
            }
            if (System.nanoTime() > deadline) {
                throw new BenchException("no peer appeared on the fabric within " + Rendezvous.seconds(timeout));
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchException("interrupted while waiting for the peer");
            }
        }
    }

    /** --json and --plot, after the table; {@code stdout} takes the JSON of {@code --json -}. */
    private static void results(BenchSettings s, String label, List<BenchResult> rows, List<BenchResult> raw,
                                Optional<HostLoad> host, PrintWriter out, PrintWriter stdout,
                                List<BenchReport> compare) {
        if (s.json() == null && s.plot() == null) {
            return;
        }
        Map<String, String> info = new LinkedHashMap<>();
        info.put("test", s.test().title());
        info.put("mode", s.loopback() ? "loopback" : s.isServer() ? "server" : "client");
        info.put("warm_up", Boolean.toString(s.warmUp() && !s.isServer()));
        host.ifPresent(h -> info.putAll(h.testInfo()));
        Map<String, String> rawInfo = new LinkedHashMap<>();
        rawInfo.put("test", s.test().title());
        if (s.inTurns()) {
            // Both runs were made in these turns, each the other's neighbour.
            info.put("turns", Integer.toString(s.turns()));
            rawInfo.put("turns", Integer.toString(s.turns()));
        }
        BenchReport report = BenchReport.of(label, info, s.unit(), rows);
        BenchReport baseline = raw.isEmpty() ? null
                : BenchReport.of(s.baselinePolls() ? "polling TCP baseline" : "raw TCP baseline", rawInfo, s.unit(),
                        raw);
        if (s.json() != null) {
            String json = report.toJson(baseline);
            if (Output.isStdout(s.json())) {
                stdout.print(json);
                stdout.flush();
            } else {
                Output.write("--json", s.json(), json.getBytes(StandardCharsets.UTF_8));
                out.println(" Results written to " + Output.show(s.json()));
            }
        }
        if (s.plot() != null) {
            List<BenchReport> runs = new ArrayList<>(compare);
            runs.addFirst(report);
            if (baseline != null) {
                runs.add(baseline);
            }
            Output.write("--plot", s.plot(), BenchPlot.png(runs));
            out.println(" Plot written to " + Output.show(s.plot()));
        }
        out.flush();
    }

    /** Result files, each with its baseline run when it has one; every problem names the file. */
    static List<BenchReport> readReports(List<Path> files) {
        List<BenchReport> runs = new ArrayList<>();
        for (Path f : files) {
            runs.addAll(BenchReport.allFromJson(Output.show(f), Output.readResultFile(f)));
        }
        return runs;
    }
}
