package io.xdlink.cli.bench;

import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.Fabrics;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailsSettings;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a validated benchmark as server, client, or both ends in this process ({@code --loopback}). */
final class BenchMain {
    private BenchMain() {
    }

    static int run(BenchSettings s, PrintWriter out, PrintWriter err) {
        Params params = BenchParams.load(s.params());
        params.warnings().forEach(w -> err.println("xdlink: " + w));
        RailsSettings rails = RailsSettings.from(params);
        try (Fabric fabric = RailFilter.apply(open(params), s.rails())) {
            if (s.loopback()) {
                loopback(s, fabric, rails, out, err);
            } else if (s.isServer()) {
                server(s, fabric, rails, out, err);
            } else {
                BenchClient.Outcome o = new BenchClient(s, fabric, rails, out, err).run(s.server(), s.port());
                results(s, o.label(), o.rows(), o.raw(), out);
            }
        }
        return 0;
    }

    private static Fabric open(Params params) {
        try {
            return Fabrics.open(params).fabric();
        } catch (IOException e) {
            throw new BenchException("no fabric: " + e.getMessage());
        }
    }

    private static void server(BenchSettings s, Fabric fabric, RailsSettings rails, PrintWriter out,
                               PrintWriter err) {
        BenchServer server = new BenchServer(s, fabric, rails, out);
        BenchServer.Prepared prepared = server.prepare();
        List<BenchResult> rows;
        // Said once the port is bound, so a client started on seeing it is never refused.
        try (Rendezvous rv = Rendezvous.listen(null, s.port(), Duration.ZERO, s.timeout(), bound -> {
            out.println("************************************");
            out.println("* Waiting for client to connect... *");
            out.println("************************************");
            out.flush();
        }, line -> {
            err.println(line);
            err.flush();
        })) {
            rows = server.serve(prepared, rv, null);
        } catch (RuntimeException e) {
            prepared.listener().close();
            prepared.device().close();
            throw e;
        }
        results(s, s.test().command() + " (server)", rows, List.of(), out);
    }

    /**
     * Both ends in this process: the server on the simulated peer's side of the fabric, on its own thread, with its
     * output discarded; the client here, printing. They meet over a rendezvous on 127.0.0.1 exactly as two hosts do.
     */
    private static void loopback(BenchSettings s, Fabric fabric, RailsSettings rails, PrintWriter out,
                                 PrintWriter err) {
        UUID peer = awaitPeer(fabric, s.timeout());
        Fabric far = fabric.far(peer).orElseThrow(
                () -> new BenchException("the fabric offers no far side for peer " + peer + "; is loopback on?"));
        BenchServer server = new BenchServer(s, far, rails, new PrintWriter(java.io.Writer.nullWriter()));
        BenchServer.Prepared prepared = server.prepare();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        AtomicReference<RuntimeException> serverFailure = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().name("xdlink-bench-loopback-server").daemon().start(() -> {
            try (Rendezvous rv = Rendezvous.listen("127.0.0.1", 0, s.timeout(), s.timeout(), port::complete)) {
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
            o = new BenchClient(s, fabric, rails, out, err).run("127.0.0.1", p);
        } finally {
            try {
                thread.join(s.timeout().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (serverFailure.get() != null) {
            throw serverFailure.get();
        }
        results(s, o.label() + ", loopback", o.rows(), o.raw(), out);
    }

    /** The simulated peer appears once XDomain discovery has enumerated it. */
    private static UUID awaitPeer(Fabric fabric, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<PeerInfo> peers = fabric.peers();
            if (!peers.isEmpty()) {
                return peers.getFirst().domain();
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

    /** --json and --plot, after the table. */
    private static void results(BenchSettings s, String label, List<BenchResult> rows, List<BenchResult> raw,
                                PrintWriter out) {
        if (s.json() == null && s.plot() == null) {
            return;
        }
        Map<String, String> info = new LinkedHashMap<>();
        info.put("test", s.test().title());
        info.put("mode", s.loopback() ? "loopback" : s.isServer() ? "server" : "client");
        info.put("warm_up", Boolean.toString(s.warmUp() && s.test().isBandwidth() && !s.isServer()));
        BenchReport report = BenchReport.of(label, info, s.unit(), rows);
        if (s.json() != null) {
            write(s.json(), report.toJson());
            out.println(" Results written to " + s.json());
        }
        if (s.plot() != null) {
            List<BenchReport> runs = new ArrayList<>(readReports(s.compare()));
            runs.addFirst(report);
            if (!raw.isEmpty()) {
                runs.add(BenchReport.of("raw TCP baseline", Map.of("test", s.test().title()), s.unit(), raw));
            }
            try {
                BenchPlot.write(runs, s.plot());
            } catch (IOException e) {
                throw new BenchException("cannot write " + s.plot() + ": " + e.getMessage());
            }
            out.println(" Plot written to " + s.plot());
        }
    }

    static List<BenchReport> readReports(List<Path> files) {
        List<BenchReport> runs = new ArrayList<>();
        for (Path f : files) {
            runs.add(BenchReport.fromJson(f.toString(), BenchCommand.readFile(f)));
        }
        return runs;
    }

    private static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
