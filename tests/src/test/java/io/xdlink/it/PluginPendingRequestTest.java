package io.xdlink.it;

import io.xdlink.ccl.abi.NativeBridge;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shim answers {@code test()} of a request that is surely still in flight without entering Java, and of a done
 * one too, with its sizes from the mirror (the device's progress thread finished it where it completed); Java
 * forgets a request the shim reported at the next call on its comm, and answers every test the mirror cannot
 * (a released request, a made-up id). Likewise the shim tells an {@code isend()} on a comm that surely has no
 * advertised receive to retry, and hands every other isend to Java. A JVM of its own (its {@code XDLINK_PARAMS} are {@code loopback=1})
 * loads the plugin library and calls the v12 table through downcalls, as a host does; Java counts the test calls
 * and isend calls that reach it ({@link NativeBridge#testUpcalls}, {@link NativeBridge#isendUpcalls}), so the assertions are about counts and bytes, never time.
 */
@Tag("multiprocess")
class PluginPendingRequestTest {

    @Test
    void aPendingRequestAndAStarvedSendAreAnsweredInCAndTheRestInJava() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dxdlink.plugin.so=" + NativeHarness.SO, "-cp", System.getProperty("java.class.path"),
                Probe.class.getName())).redirectErrorStream(true);
        // Device threads finish requests as they complete, the mode in which the shim answers a done test itself.
        pb.environment().put("XDLINK_PARAMS", "loopback=1 loopback_clock=unpaced ccl_drain_on_progress=1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(out).as(out)
                .contains("PASS 1000 tests of a pending receive reached Java ")
                .contains("PASS the receive completed with size 8 and the sender's bytes, reaching Java ")
                .contains("PASS the send completed with size 8, reaching Java ")
                .contains("PASS a released request is an error")
                .contains("PASS the next irecv forgot the reported receive in Java: its handle slot was reused")
                .contains("PASS a made-up request id is an error")
                .contains("PASS 1000 isends before any receive was posted reached Java ")
                .contains("PASS an isend with a made-up memory handle is an error on a starved comm")
                .contains("PASS the isend after the receive was advertised went to Java and posted")
                .contains("PASS 1000 isends after the advertised buffer was used reached Java ")
                .contains("PASS an isend on a closed send comm goes to Java and is an error")
                .doesNotContain("FAIL");
        assertThat(p.exitValue()).as(out).isZero();
    }

    /** The host side, in the forked JVM: prints PASS or FAIL lines and exits non-zero on a failure. */
    public static final class Probe {
        private static int failures;

        private Probe() {
        }

        private static void check(boolean ok, String what) {
            System.out.println((ok ? "PASS " : "FAIL ") + what);
            if (!ok) {
                failures++;
            }
        }

        private static MethodHandle slot(MemorySegment table, int index, FunctionDescriptor fd) {
            return Linker.nativeLinker().downcallHandle(table.getAtIndex(ADDRESS, index), fd);
        }

        /**
         * 1000 isends on a send comm with no receive buffer to go to: none may post, and at most the first may reach
         * Java (the shim answers the rest itself).
         */
        private static void starvedIsends(MethodHandle isend, MemorySegment send, MemorySegment out,
                                          MemorySegment outMh, MemorySegment request, String when) throws Throwable {
            long before = NativeBridge.isendUpcalls();
            boolean anyPosted = false;
            for (int i = 0; i < 1000; i++) {
                ok((int) isend.invokeExact(send, out, 8L, 0, outMh, MemorySegment.NULL, request), "isend");
                anyPosted |= request.get(ADDRESS, 0).address() != 0;
            }
            long upcalls = NativeBridge.isendUpcalls() - before;
            check(!anyPosted && upcalls <= 1, "1000 isends " + when + " reached Java " + upcalls
                    + " times (at most 1 allowed)");
        }

        private static void ok(int rc, String what) {
            if (rc != 0) {
                throw new IllegalStateException(what + " returned ncclResult " + rc);
            }
        }

        public static void main(String[] args) throws Throwable {
            SymbolLookup lib = SymbolLookup.libraryLookup(Path.of(System.getProperty("xdlink.plugin.so")),
                    Arena.global());
            MemorySegment table = lib.find("ncclNetPlugin_v12").orElseThrow().reinterpret(22 * ADDRESS.byteSize());
            MethodHandle init = slot(table, 1, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS,
                    ADDRESS));
            MethodHandle listen = slot(table, 4, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
                    ADDRESS));
            MethodHandle connect = slot(table, 5, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
                    ADDRESS, ADDRESS));
            MethodHandle accept = slot(table, 6, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle regMr = slot(table, 7, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG,
                    JAVA_INT, ADDRESS));
            MethodHandle isend = slot(table, 10, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG,
                    JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle irecv = slot(table, 11, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
                    ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle test = slot(table, 13, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle closeSend = slot(table, 14, FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle closeRecv = slot(table, 15, FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle closeListen = slot(table, 16, FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle finalizeContext = slot(table, 20, FunctionDescriptor.of(JAVA_INT, ADDRESS));

            Arena arena = Arena.ofShared();
            MemorySegment ctxOut = arena.allocate(ADDRESS);
            MemorySegment config = arena.allocate(JAVA_INT);
            config.set(JAVA_INT, 0, -1);
            ok((int) init.invokeExact(ctxOut, 7L, config, MemorySegment.NULL, MemorySegment.NULL), "init");
            MemorySegment ctx = ctxOut.get(ADDRESS, 0);
            MemorySegment handle = arena.allocate(128);
            MemorySegment lc = arena.allocate(ADDRESS);
            ok((int) listen.invokeExact(ctx, 0, handle, lc), "listen");
            MemorySegment sc = arena.allocate(ADDRESS);
            MemorySegment rc = arena.allocate(ADDRESS);
            MemorySegment devComm = arena.allocate(ADDRESS);
            for (int i = 0; i < 1_000_000 && (sc.get(ADDRESS, 0).address() == 0
                    || rc.get(ADDRESS, 0).address() == 0); i++) {
                if (sc.get(ADDRESS, 0).address() == 0) {
                    ok((int) connect.invokeExact(ctx, 0, handle, sc, devComm), "connect");
                }
                if (rc.get(ADDRESS, 0).address() == 0) {
                    ok((int) accept.invokeExact(lc.get(ADDRESS, 0), rc, devComm), "accept");
                }
                Thread.sleep(0, 100_000);
            }
            MemorySegment send = sc.get(ADDRESS, 0);
            MemorySegment recv = rc.get(ADDRESS, 0);
            check(send.address() != 0 && recv.address() != 0, "connected");

            MemorySegment out = arena.allocate(8, 64);
            out.set(JAVA_LONG, 0, 0x0123_4567_89AB_CDEFL);
            MemorySegment in = arena.allocate(8, 64);
            MemorySegment mh = arena.allocate(ADDRESS);
            ok((int) regMr.invokeExact(send, out, 8L, 1, mh), "regMr send");
            MemorySegment outMh = mh.get(ADDRESS, 0);
            ok((int) regMr.invokeExact(recv, in, 8L, 1, mh), "regMr recv");
            MemorySegment inMh = mh.get(ADDRESS, 0);

            // No receive is posted yet: every isend must be told to retry, and after the first look the shim
            // says so by itself, since nothing can arrive on the send comm before the receive is advertised.
            MemorySegment sendRequest = arena.allocate(ADDRESS);
            starvedIsends(isend, send, out, outMh, sendRequest, "before any receive was posted");
            // A memory handle that is not one is never vouched for: Java reports it even while the comm is starved.
            int badHandle = (int) isend.invokeExact(send, out, 8L, 0, MemorySegment.ofAddress(0x7FFF_0000_0000_0011L),
                    MemorySegment.NULL, sendRequest);
            check(badHandle == 3 && sendRequest.get(ADDRESS, 0).address() == 0,
                    "an isend with a made-up memory handle is an error on a starved comm");

            MemorySegment data = arena.allocate(ADDRESS);
            data.set(ADDRESS, 0, in);
            MemorySegment sizes = arena.allocate(JAVA_LONG);
            sizes.set(JAVA_LONG, 0, 8);
            MemorySegment tags = arena.allocate(JAVA_INT);
            MemorySegment mhs = arena.allocate(ADDRESS);
            mhs.set(ADDRESS, 0, inMh);
            MemorySegment phandles = arena.allocate(ADDRESS);
            MemorySegment recvRequest = arena.allocate(ADDRESS);
            ok((int) irecv.invokeExact(recv, 1, data, sizes, tags, mhs, phandles, recvRequest), "irecv");
            MemorySegment request = recvRequest.get(ADDRESS, 0);
            check(request.address() > 1, "irecv posted");

            MemorySegment done = arena.allocate(JAVA_INT);
            MemorySegment got = arena.allocate(JAVA_INT);
            long before = NativeBridge.testUpcalls();
            boolean anyDone = false;
            for (int i = 0; i < 1000; i++) {
                ok((int) test.invokeExact(request, done, got), "test of the pending receive");
                anyDone |= done.get(JAVA_INT, 0) != 0;
            }
            long pendingUpcalls = NativeBridge.testUpcalls() - before;
            // None goes to Java: irecv looked at the comm last, the advertisement's own completion is not announced
            // (it only frees a slot) and nothing else happens on this comm while nobody sends.
            check(!anyDone && pendingUpcalls == 0, "1000 tests of a pending receive reached Java " + pendingUpcalls
                    + " times (none allowed)");

            long beforeAdvertised = NativeBridge.isendUpcalls();
            for (int i = 0; i < 1_000_000 && sendRequest.get(ADDRESS, 0).address() == 0; i++) {
                ok((int) isend.invokeExact(send, out, 8L, 0, outMh, MemorySegment.NULL, sendRequest), "isend");
            }
            check(sendRequest.get(ADDRESS, 0).address() > 1 && NativeBridge.isendUpcalls() > beforeAdvertised,
                    "the isend after the receive was advertised went to Java and posted");
            long beforeDone = NativeBridge.testUpcalls();
            done.set(JAVA_INT, 0, 0);
            for (int i = 0; i < 100_000_000 && done.get(JAVA_INT, 0) == 0; i++) {
                ok((int) test.invokeExact(request, done, got), "test of the receive");
            }
            // The progress thread finishes the receive where its write lands, before it announces it: a test sees
            // it done in the mirror, except one that falls between the announcement and the finishing.
            long receiveUpcalls = NativeBridge.testUpcalls() - beforeDone;
            check(done.get(JAVA_INT, 0) == 1 && got.get(JAVA_INT, 0) == 8 && in.get(JAVA_LONG, 0)
                    == out.get(JAVA_LONG, 0) && receiveUpcalls <= 1,
                    "the receive completed with size 8 and the sender's bytes, reaching Java " + receiveUpcalls
                    + " times (at most 1 allowed)");
            done.set(JAVA_INT, 0, 0);
            MemorySegment sentSize = arena.allocate(JAVA_INT);
            long beforeSent = NativeBridge.testUpcalls();
            for (int i = 0; i < 100_000_000 && done.get(JAVA_INT, 0) == 0; i++) {
                ok((int) test.invokeExact(sendRequest.get(ADDRESS, 0), done, sentSize), "test of the send");
            }
            long sendUpcalls = NativeBridge.testUpcalls() - beforeSent;
            check(done.get(JAVA_INT, 0) == 1 && sentSize.get(JAVA_INT, 0) == 8 && sendUpcalls <= 1,
                    "the send completed with size 8, reaching Java " + sendUpcalls + " times (at most 1 allowed)");

            // The only advertised buffer is used: sends are told to retry again, by the shim after one look.
            MemorySegment retry = arena.allocate(ADDRESS);
            starvedIsends(isend, send, out, outMh, retry, "after the advertised buffer was used");

            // Handle slots are reused newest first: the next irecv frees the reported receive's slot and takes it.
            MemorySegment nextRequest = arena.allocate(ADDRESS);
            ok((int) irecv.invokeExact(recv, 1, data, sizes, tags, mhs, phandles, nextRequest), "irecv");
            long next = nextRequest.get(ADDRESS, 0).address();
            check(next > 1 && (next & 0xFFFF_FFFFL) == (request.address() & 0xFFFF_FFFFL) && next != request.address(),
                    "the next irecv forgot the reported receive in Java: its handle slot was reused");

            long beforeStale = NativeBridge.testUpcalls();
            int stale = (int) test.invokeExact(request, done, got);
            check(stale == 3 && NativeBridge.testUpcalls() == beforeStale + 1, "a released request is an error");
            // The request kind's bits with an index no handle ever had: the shim reads its mirror and asks Java.
            int madeUp = (int) test.invokeExact(MemorySegment.ofAddress(0x7FFF_FFFF_0000_0000L | (5_000_000L << 3) | 6),
                    done, got);
            check(madeUp == 3, "a made-up request id is an error");

            ok((int) closeSend.invokeExact(send), "closeSend");
            long beforeClosed = NativeBridge.isendUpcalls();
            int closedSend = (int) isend.invokeExact(send, out, 8L, 0, outMh, MemorySegment.NULL, retry);
            check(closedSend == 3 && NativeBridge.isendUpcalls() == beforeClosed + 1,
                    "an isend on a closed send comm goes to Java and is an error");
            ok((int) closeRecv.invokeExact(recv), "closeRecv");
            ok((int) closeListen.invokeExact(lc.get(ADDRESS, 0)), "closeListen");
            ok((int) finalizeContext.invokeExact(ctx), "finalize");
            System.out.flush();
            System.exit(failures == 0 ? 0 : 1);
        }
    }
}
