package io.xdlink.cli.bench;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.Listener;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static io.xdlink.cli.bench.RendezvousRecords.abbreviate;

/**
 * The side that waits, as perftest's server does: its device and listener are up before the client arrives, it runs
 * whatever test the client's SETUP asks for (the same command on both sides), keeps receives posted or answers pings
 * while the client measures, and prints the rows the client sends, so both tables are the same.
 */
final class BenchServer extends BenchSide {
    private final BenchSettings template;

    /** @param congestion the rails' congestion control ({@code tcp_congestion}), empty for the host's default */
    BenchServer(BenchSettings template, Fabric fabric, RailsSettings rails, String congestion, PrintWriter out,
                PrintWriter err) {
        super(fabric, rails, congestion, out, err);
        this.template = template;
    }

    /** Opens the device and its listener now, so rails come up while the client is still starting. */
    Prepared prepare() {
        BenchDevice device = openDevice(template.loopback());
        try {
            return new Prepared(device, device.device().listen());
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
    }

    /** Serves one client on an accepted rendezvous; returns the rows it printed and this host's load meanwhile. */
    Served serve(Prepared prepared, Rendezvous rv, String bindAddress) {
        AtomicReference<BenchEndpoint> endpoint = new AtomicReference<>();
        AtomicReference<BenchSettings> agreed = new AtomicReference<>();
        try {
            String setupText = prepared.device().away(() -> rv.serve(text -> {
                BenchRecord setup = BenchRecord.parse(text, "SETUP");
                BenchSettings s = template.adopt(setup);
                long max = s.maxSize();
                BenchEndpoint ep = new BenchEndpoint(prepared.device(), s.qps(), max, cqCapacity(s));
                endpoint.set(ep);
                agreed.set(s);
                BenchSettings.mismatches("server", template.sizesGiven() ? template.sizes() : null,
                        template.itersGiven() ? template.iterations() : null, s.sizes(), s.iterations())
                        .forEach(w -> out.println("xdlink: warning: " + w));
                BenchRecord ready = BenchRecord.of("READY")
                        .with("handle", HexFormat.of().formatHex(prepared.listener().handle().toBytes()))
                        .with("addr", "0x" + Long.toHexString(ep.mr().address())).with("rkey", ep.mr().rkey());
                // What this server's own command line asked for, so the client can say so too when it differs.
                if (template.sizesGiven()) {
                    ready = ready.with("ssizes", BenchSettings.sizesField(template.sizes()));
                }
                if (template.itersGiven()) {
                    ready = ready.with("siters", template.iterations());
                }
                return ready.format();
            }));
            BenchRecord setup = BenchRecord.parse(setupText, "SETUP");
            BenchEndpoint ep = endpoint.get();
            BenchSettings s = agreed.get();
            ep.remote(setup.getHex("addr"), (int) setup.getLong("rkey", Integer.MIN_VALUE, Integer.MAX_VALUE));
            return runOn(rv, ep, s, prepared.listener(), bindAddress);
        } catch (BenchException e) {
            rv.sendQuietly(BenchRecord.error(e.getMessage()));
            throw e;
        } finally {
            prepared.listener().close();
            BenchEndpoint ep = endpoint.get();
            if (ep != null) {
                ep.close();
            } else {
                prepared.device().close();
            }
        }
    }

    private Served runOn(Rendezvous rv, BenchEndpoint ep, BenchSettings s, Listener listener, String bindAddress) {
        ep.accept(listener, s.qps(), s.timeout());
        BenchDevice dev = ep.bench();
        Supplier<String> gone = lostPeer("client", ep.qps().getFirst()::peerDevice);
        rv.watch(gone);
        ep.watch(gone);
        awaitEveryCable(ep, ep.qps().getFirst().peerDevice(), s.timeout());
        dev.away(() -> rv.barrier("connected"));
        banner(s, ep, ep.qps().getFirst().peerDevice());
        BenchOutput o = new BenchOutput(out, s);
        o.header();
        List<BenchResult> rows = new ArrayList<>();
        HostLoad.Window load = HostLoad.open(HostLoad.PROC);
        // A responder runs the engine while it answers; without one (write_bw) the standby does. The client's
        // result comes when its whole run is over, which on a loaded host may take longer than the timeout (a
        // warm-up of up to 15 s, then its round trips or messages): the wait goes on as long as the client's frames
        // keep arriving, and a client that stopped is still given up on after the timeout.
        LongSupplier progress = ep.device()::dataFramesReceived;
        // In turns the socket's shares come between xdlink's with no word at the rendezvous: a thread of their own
        // answers them as they come, so this side's engine and responder run undisturbed by the turns.
        try (RawBaseline.Server inTurns = s.inTurns() ? dev.away(() -> RawBaseline.Server.accept(
                rawStep(rv, bindAddress, congestion), s)) : null) {
            if (inTurns != null) {
                inTurns.startServing(s.sizes().size() * s.turns());
            }
            for (long size : s.sizes()) {
                dev.away(() -> rv.barrier("size " + size));
                BenchResponder responder = BenchResponder.startFor(ep, s, size);
                // The client's warm-up asks after this side's compilers between its rounds; its result ends the size.
                String text = responder != null ? PeerCompilers.serveSize(rv, t -> {
                    responder.join();
                    return "OK";
                }, progress) : dev.away(() -> PeerCompilers.serveSize(rv, t -> "OK", progress));
                BenchResult r = BenchResult.parse(BenchRecord.parse(text, "RESULT"), s.unit());
                o.row(r);
                rows.add(r);
            }
            if (inTurns != null) {
                dev.away(inTurns::finish);
            }
        }
        o.end();
        if (s.baselineRaw()) {
            List<BenchResult> raw = new ArrayList<>();
            dev.away(() -> {
                if (!s.inTurns()) {
                    RawBaseline.server(rawStep(rv, bindAddress, congestion), s);
                }
                for (int i = 0; i < s.sizes().size(); i++) {
                    raw.add(BenchResult.parse(BenchRecord.parse(rv.serve(t -> "OK"), "RESULT"), s.unit()));
                }
            });
            o.baseline(BenchClient.baselinePath(rv.peer(), s, congestion), rows, raw);
        }
        // In one process with the client (--loopback) the client reports the same host.
        Optional<HostLoad> host = template.loopback() ? Optional.empty() : load.close();
        o.host(host, err);
        dev.away(() -> rv.barrier("done"));
        return new Served(rows, host);
    }

    /**
     * The baseline's step at the rendezvous: listens for its connection, then tells the client where, in answer to
     * its "SYNC raw".
     */
    private static ServerSocketChannel rawStep(Rendezvous rv, String bindAddress, String congestion) {
        ServerSocketChannel ss = RawBaseline.listen(bindAddress, RawBaseline.port(rv.localPort()), congestion);
        try {
            rv.serve(t -> {
                if (t.startsWith("ERROR")) {
                    BenchRecord.parse(t, "SYNC"); // throws what the peer reported
                }
                if (!t.equals("SYNC raw")) {
                    throw new BenchException("the peer is out of step: expected its raw baseline step, got '"
                            + abbreviate(t) + "'");
                }
                return RawBaseline.portRecord(ss);
            });
            return ss;
        } catch (RuntimeException e) {
            try {
                ss.close();
            } catch (IOException ignored) {
                // the step failed; that is what is reported
            }
            throw e;
        }
    }

    /** What a server run printed: the rows, and this host's load over the run when /proc could say. */
    record Served(List<BenchResult> rows, Optional<HostLoad> host) {
    }

    /** A device and its listener, up before the client connects. */
    record Prepared(BenchDevice device, Listener listener) {
    }
}
