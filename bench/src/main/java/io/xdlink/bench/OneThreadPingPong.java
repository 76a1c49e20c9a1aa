package io.xdlink.bench;

import io.xdlink.ccl.CclContext;
import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.ccl.DeviceProperties;
import io.xdlink.ccl.ListenComm;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.Request;
import io.xdlink.ccl.SendComm;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.Map;

/**
 * Diagnosis, not a target: the plugin's 8-byte ping-pong between two hosts of one process over real TCP rails, both
 * ends driven by one thread in turns, each call where a two-process run would call (the netbench loop: rank 0 sends,
 * waits for its send, then its receive, reposts; rank 1 waits, reposts, answers), the other end's turn where that one
 * would yield. With nothing to wait for, a round trip takes what both ends' calls take, Java and system calls, and
 * the thread's processor time per round trip is that work alone: a change to the per-message path shows here with
 * little noise, before it is judged where it counts (two processes in the two-host lab).
 *
 * <p>Each round also times the same round trips over a plain TCP connection on 127.0.0.1 in the same thread, what
 * the system calls alone cost. Arguments: the two hosts' parameters ({@code XDLINK_PARAMS} syntax: a host_root
 * whose cable is an interface both can reach, their control ports, the second naming the first), then rounds and
 * round trips per round. In a network namespace of its own with only {@code lo} up, a copy of the two-host lab's
 * sysfs trees whose {@code net/thunderbolt0} is renamed {@code net/lo} serves both hosts:
 * {@code 'host_root=A tcp_control_port=47801' 'host_root=B tcp_control_port=47802
 * tcp_peer_address=127.0.0.1:47801'}.
 */
public final class OneThreadPingPong {
    private static final int TAG = 7;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private OneThreadPingPong() {
    }

    /** One end of the ping-pong as a state machine: each {@link #step} is one call into the plugin. */
    private static final class End {
        private final CclNet net;
        private final SendComm send;
        private final RecvComm recv;
        private final MemorySegment sbuf;
        private final MemorySegment rbuf;
        private final MemoryHandle smh;
        private final MemoryHandle rmh;
        private final boolean first;
        private Request sending;
        private Request receiving;
        /** 0: send, 1: wait for the send, 2: wait for the receive, 3: repost the receive. Rank 1 starts at 2. */
        private int state;
        long roundTrips;

        End(CclNet net, SendComm send, RecvComm recv, Arena arena, boolean first) throws Exception {
            this.net = net;
            this.send = send;
            this.recv = recv;
            this.sbuf = arena.allocate(8, 64);
            this.rbuf = arena.allocate(8, 64);
            this.smh = net.registerMemory(send, sbuf, DeviceProperties.PTR_HOST);
            this.rmh = net.registerMemory(recv, rbuf, DeviceProperties.PTR_HOST);
            this.first = first;
            this.state = first ? 0 : 2;
        }

        void start() throws Exception {
            receiving = post();
        }

        private Request post() throws Exception {
            Request r = net.irecv(recv, new MemorySegment[] {rbuf}, new int[] {TAG}, new MemoryHandle[] {rmh});
            if (r == null) {
                throw new IllegalStateException("irecv said not yet");
            }
            return r;
        }

        /** One call; false when it was a look that found its request not done (the point to yield). */
        boolean step() throws Exception {
            switch (state) {
                case 0 -> {
                    sending = net.isend(send, sbuf, TAG, smh);
                    if (sending == null) {
                        return false;
                    }
                    state = 1;
                }
                case 1 -> {
                    if (!net.test(sending, null)) {
                        return false;
                    }
                    state = 2;
                }
                case 2 -> {
                    if (!net.test(receiving, null)) {
                        return false;
                    }
                    state = 3;
                }
                default -> {
                    receiving = post();
                    if (first) {
                        roundTrips++;
                    }
                    state = 0;
                }
            }
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: OneThreadPingPong 'params of host a' 'params of host b' [rounds] [round-trips]");
            System.exit(2);
        }
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        long perRound = args.length > 3 ? Long.parseLong(args[3]) : 200_000;
        CclLog log = (level, subsystems, message) -> {
            if (level == CclLog.Level.WARN) {
                System.err.println(message);
            }
        };
        try (CclNet a = CclNets.open(params(args[0]), log); CclNet b = CclNets.open(params(args[1]), log);
                Arena arena = Arena.ofShared()) {
            CclContext ca = a.init(1, -1);
            CclContext cb = b.init(1, -1);
            ListenComm la = a.listen(ca, 0);
            ListenComm lb = b.listen(cb, 0);
            byte[] ha = la.handle();
            byte[] hb = lb.handle();
            SendComm sa = null;
            SendComm sb = null;
            RecvComm ra = null;
            RecvComm rb = null;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (sa == null || sb == null || ra == null || rb == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("connections not up in 30 s");
                }
                sa = sa != null ? sa : a.connect(ca, 0, -1, hb);
                sb = sb != null ? sb : b.connect(cb, 0, -1, ha);
                ra = ra != null ? ra : a.accept(la);
                rb = rb != null ? rb : b.accept(lb);
                Thread.onSpinWait();
            }
            End ea = new End(a, sa, ra, arena, true);
            End eb = new End(b, sb, rb, arena, false);
            ea.start();
            eb.start();
            // Before host a sends, nobody sends to it: each test() of its receive is a look that finds nothing.
            for (int r = 0; r < 3; r++) {
                int looks = 200_000;
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < looks; i++) {
                    if (a.test(ea.receiving, null)) {
                        throw new IllegalStateException("a receive nobody sent to completed");
                    }
                }
                System.out.printf(Locale.ROOT, "a look that finds nothing: %.3f us (processor)%n",
                        (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e3 / looks);
            }
            for (int r = 0; r < rounds; r++) {
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long bytes0 = allocated();
                long t0 = System.nanoTime();
                long until = ea.roundTrips + perRound;
                long calls = 0;
                while (ea.roundTrips < until) {
                    while (ea.step()) {
                        calls++;
                    }
                    calls++;
                    while (eb.step()) {
                        calls++;
                    }
                    calls++;
                }
                long wall = System.nanoTime() - t0;
                long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
                long bytes = allocated() - bytes0;
                System.out.printf(Locale.ROOT, "round %d: %.3f us a round trip (processor %.3f us), %.1f calls and"
                        + " %.0f bytes allocated each; socket %.3f us%n", r, wall / 1e3 / perRound, cpu / 1e3 / perRound,
                        (double) calls / perRound, (double) bytes / perRound, socketRoundTrip(perRound));
            }

        }
    }

    /**
     * The same round trips over a plain TCP connection on 127.0.0.1 in one thread: 8 bytes written, read at the
     * other end, written back and read, with TCP_NODELAY. Processor microseconds per round trip.
     */
    private static double socketRoundTrip(long n) throws Exception {
        try (PlainTcpPair pair = PlainTcpPair.open()) {
            ByteBuffer m = ByteBuffer.allocateDirect(8);
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            for (long i = 0; i < n; i++) {
                pass(pair.a(), pair.b(), m);
                pass(pair.b(), pair.a(), m);
            }
            return (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
        }
    }

    /** The 8 bytes of {@code m} written by {@code from} and read whole by {@code to}. */
    private static void pass(SocketChannel from, SocketChannel to, ByteBuffer m) throws IOException {
        m.clear();
        from.write(m);
        m.clear();
        while (m.hasRemaining()) {
            to.read(m);
        }
    }

    /** Bytes this thread allocated so far. */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) THREADS).getCurrentThreadAllocatedBytes();
    }

    private static Params params(String line) throws Exception {
        return ParamSources.system().environment(Map.of("XDLINK_PARAMS", line)).load();
    }
}
