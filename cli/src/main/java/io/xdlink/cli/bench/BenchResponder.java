package io.xdlink.cli.bench;

import io.xdlink.rails.verbs.QueuePair;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The server's active half, on a thread of its own while the main thread waits for the client's result: for
 * send_bw it keeps receives posted (perftest's RX depth) and reposts each as it completes; for the latency tests it
 * answers every ping. {@link #stop} ends it; a failure is kept for {@link #join}.
 */
final class BenchResponder implements Runnable {
    /** Receives kept posted per queue pair for send_bw, as perftest's default RX depth for SEND (512) allows. */
    static final int RX_DEPTH = 512;

    private final BenchEndpoint ep;
    private final BenchSettings s;
    private final long size;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stop;
    private Thread thread;

    BenchResponder(BenchEndpoint ep, BenchSettings s, long size) {
        this.ep = ep;
        this.s = s;
        this.size = size;
    }

    /**
     * Starts the responder if this test needs one; returns null when the server only waits (write_bw). A latency
     * test's responder answers every ping, the client's warm-up included, until stopped.
     */
    static BenchResponder startFor(BenchEndpoint ep, BenchSettings s, long size) {
        if (s.test() == BenchTest.WRITE_BW) {
            return null;
        }
        BenchResponder r = new BenchResponder(ep, s, size);
        r.thread = Thread.ofPlatform().name("xdlink-bench-responder").daemon().start(r);
        return r;
    }

    @Override
    public void run() {
        try {
            switch (s.test()) {
                case SEND_BW -> sink();
                case WRITE_LAT, SEND_LAT -> LatencyRun.respond(ep, s, size, () -> stop);
                case WRITE_BW -> { }
            }
            // Its last answer may still be in the engine: keep it running until the client's result stops us.
            BenchDevice.Pacer spin = ep.pacer();
            while (!stop) {
                spin.idle(0);
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private void sink() {
        List<QueuePair> qps = ep.qps();
        // perftest's RX depth, within what a queue pair may hold (qp_max_recv_wr).
        int depth = Math.max(1, Math.min(RX_DEPTH / qps.size(), ep.device().settings().qpMaxRecvWr()));
        BenchDevice.Pacer spin = ep.pacer();
        while (!stop) {
            int work = topUp(qps, depth);
            while (ep.poll() != null) {
                work++;
            }
            spin.idle(work);
        }
    }

    /**
     * Keeps every queue pair at {@code depth} posted receives; receives an earlier size left posted count. A post
     * refused because the queue is momentarily full is simply tried again on the next pass.
     */
    private int topUp(List<QueuePair> qps, int depth) {
        int posted = 0;
        for (int i = 0; i < qps.size(); i++) {
            QueuePair qp = qps.get(i);
            while (qp.recvOutstanding() < depth
                    && qp.postRecv(i, ep.mr(), ep.recvOffset(i), ep.recvCapacity())) {
                posted++;
            }
        }
        return posted;
    }

    void stop() {
        stop = true;
    }

    /** Stops, waits for the thread and rethrows what it failed with. */
    void join() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure.get();
        if (t instanceof BenchException b) {
            throw b;
        }
        if (t != null) {
            throw new BenchException("the server side failed: " + t, t);
        }
    }
}
