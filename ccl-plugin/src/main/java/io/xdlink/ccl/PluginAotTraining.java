package io.xdlink.ccl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The build's training run for the JDK's ahead-of-time cache beside the plugin's jars (JEP 483, 514; without
 * method profiles, see {@code aot/train.sh}): in one JVM, the calls a collective library makes first, over
 * {@code loopback=1} (the simulator): init, listen, connect and accept with retries, registration, then
 * isend/irecv/test at 8 B, 64 KiB and 1 MiB with up to 8 requests in flight, and the closes. {@code aot/train.sh}
 * starts it with {@code -XX:AOTCacheOutput} on the class path the shim builds (every jar in the plugin directory,
 * sorted); it is not part of the plugin's API. The native entry points themselves (upcall stubs) are not trained:
 * those classes load from the jars as before.
 */
public final class PluginAotTraining {
    private static final int IN_FLIGHT = 8;
    private static final long TAG = 7;

    private PluginAotTraining() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        CclLog quiet = (level, subsystems, message) -> {
            if (level == CclLog.Level.WARN) {
                System.err.println(message);
            }
        };
        try (CclNet net = CclNets.fromEnvironment(quiet); Arena arena = Arena.ofShared()) {
            CclContext ctx = net.init(1, -1);
            net.properties(0);
            ListenComm listen = net.listen(ctx, 0);
            byte[] handle = listen.handle(); // one copy: connect records its pending attempt in it, as NCCL's does
            SendComm send = null;
            RecvComm recv = null;
            for (long tries = 0; (send == null || recv == null) && tries < 10_000_000; tries++) {
                if (send == null) {
                    send = net.connect(ctx, 0, -1, handle);
                }
                if (recv == null) {
                    recv = net.accept(listen);
                }
            }
            if (send == null || recv == null) {
                throw new IllegalStateException("connect/accept over loopback=1 never finished");
            }
            for (int size : new int[] {8, 64 << 10, 1 << 20}) {
                exchange(net, arena, send, recv, size, size >= (1 << 20) ? rounds / 10 : rounds);
            }
            net.closeSend(send);
            net.closeRecv(recv);
            net.closeListen(listen);
            net.finalize(ctx);
        }
    }

    /** count messages of size bytes, up to IN_FLIGHT sends and receives posted at once, polled with test(). */
    private static void exchange(CclNet net, Arena arena, SendComm send, RecvComm recv, int size, int count)
            throws CclException {
        MemorySegment src = arena.allocate(size, 4096);
        MemorySegment dst = arena.allocate(size, 4096);
        MemoryHandle smh = net.registerMemory(send, src, DeviceProperties.PTR_HOST);
        MemoryHandle rmh = net.registerMemory(recv, dst, DeviceProperties.PTR_HOST);
        Request[] sends = new Request[IN_FLIGHT];
        Request[] recvs = new Request[IN_FLIGHT];
        boolean[] issued = new boolean[IN_FLIGHT];
        long[] sizes = new long[CclNet.MAX_RECVS];
        int posted = 0;
        int received = 0;
        for (long spins = 0; received < count && spins < 100_000_000L; spins++) {
            for (int i = 0; i < IN_FLIGHT; i++) {
                if (recvs[i] == null && sends[i] == null && posted < count) {
                    recvs[i] = net.irecv(recv, new MemorySegment[] {dst}, new int[] {(int) TAG},
                            new MemoryHandle[] {rmh});
                    issued[i] = false;
                    if (recvs[i] != null) {
                        posted++;
                    }
                }
                if (recvs[i] != null && !issued[i]) {
                    sends[i] = net.isend(send, src, (int) TAG, smh);
                    issued[i] = sends[i] != null;
                }
                if (sends[i] != null && net.test(sends[i], sizes)) {
                    sends[i] = null;
                }
                if (recvs[i] != null && issued[i] && net.test(recvs[i], sizes)) {
                    recvs[i] = null;
                    received++;
                }
            }
        }
        if (received < count) {
            throw new IllegalStateException(received + " of " + count + " messages of " + size + " B arrived");
        }
        net.deregisterMemory(send, smh);
        net.deregisterMemory(recv, rmh);
    }
}
