package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where a receive is finished and when its slot is free again: where {@code ccl_drain_on_progress} lets an end
 * drain on the thread that produced a completion, the write that lands finishes the receive on that thread (here
 * the one stepping the engines), before anyone tests it; a receive a native mirror reported done gives its slot back
 * without a test; a host's call never waits for such a drain. And what a receive end makes of writes that name no
 * buffer it waits on.
 */
class RecvEndpointTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_2ECL);

    private final Arena arena = Arena.ofShared();
    private final List<AutoCloseable> ends = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable e : ends.reversed()) {
            e.close();
        }
        arena.close();
    }

    private record Pair(RailsWire wire, SendEndpoint send, RecvEndpoint recv, MemorySegment src,
                        MemorySegment dst, MemoryRegion srcMem, MemoryRegion dstMem) {
        IrecvRequest receive(int i) throws CclException {
            return recv.irecv(new MemorySegment[] {dst.asSlice(8L * i, 8)}, new int[] {7},
                    new MemoryRegion[] {dstMem});
        }

        /** Sends into the next advertised buffer once the advertisement has arrived. */
        IsendRequest send(int i) throws CclException {
            for (int tries = 0; tries < 100; tries++) {
                IsendRequest s = send.isend(src.asSlice(8L * i, 8), 7, srcMem);
                if (s != null) {
                    return s;
                }
                wire.step();
            }
            return null;
        }
    }

    private Pair pair(boolean drain) throws Exception {
        RailsWire wire = new RailsWire(SEED);
        ends.add(wire);
        SendEndpoint send = wire.sendEnd(drain);
        RecvEndpoint recv = wire.recvEnd(drain);
        ends.add(send::close);
        ends.add(recv::close);
        MemorySegment src = RailsWire.filled(arena, 8 * 64, SEED);
        MemorySegment dst = arena.allocate(8 * 64, 64);
        return new Pair(wire, send, recv, src, dst, send.register(src), recv.register(dst));
    }

    @Test
    void aDrainingEndFinishesTheReceiveWhereItsWriteLandsBeforeAnyTest() throws Exception {
        Pair p = pair(true);
        IrecvRequest r = p.receive(0);
        assertThat(r).isNotNull();
        IsendRequest s = p.send(0);
        assertThat(s).isNotNull();
        p.wire().step();
        assertThat(r.finished()).as("finished by the thread that stepped the engine").isTrue();
        assertThat(r.attention().quiet()).as("taken in and counted: the end does not look busy for it").isTrue();
        assertThat(r.failed()).isFalse();
        assertThat(r.size(0)).isEqualTo(8);
        assertThat(s.finished()).as("the send end drained its acknowledgement the same way").isTrue();
        assertThat(p.dst().get(JAVA_LONG, 0)).isEqualTo(p.src().get(JAVA_LONG, 0));
        long[] sizes = new long[1];
        assertThat(r.test(sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(8);
        assertThat(s.test(sizes)).isTrue();
    }

    @Test
    void aReceiveWithABufferOutsideItsMemoryIsRefusedNamingThatBufferAndAdvertisesNothing() throws Exception {
        Pair p = pair(false);
        MemorySegment elsewhere = arena.allocate(8, 8);
        assertThatThrownBy(() -> p.recv().irecv(new MemorySegment[] {p.dst().asSlice(0, 8), elsewhere},
                new int[] {7, 7}, new MemoryRegion[] {p.dstMem(), p.dstMem()}))
                .isInstanceOf(CclException.class)
                .hasMessageContaining("receive buffer 1 [0x")
                .hasMessageContaining("lies outside its registered memory");
        assertThatThrownBy(() -> p.recv().irecv(new MemorySegment[] {p.dst().asSlice(0, 8)}, new int[] {7},
                new MemoryRegion[] {null}))
                .hasMessageContaining("receive buffer 0 has no memory handle");
        // The refused receives took no slot and no sequence: the next one is the first the sender sees.
        IrecvRequest r = p.receive(0);
        assertThat(p.send(0)).isNotNull();
        long[] sizes = new long[1];
        assertThat(p.wire().await(r, sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(8);
        assertThat(p.dst().asSlice(0, 8).toArray(JAVA_LONG)).isEqualTo(p.src().asSlice(0, 8).toArray(JAVA_LONG));
    }

    @Test
    void anEndThatMayNotDrainOnTheProducingThreadLeavesTheReceiveToItsTest() throws Exception {
        Pair p = pair(false);
        IrecvRequest r = p.receive(0);
        assertThat(p.send(0)).isNotNull();
        p.wire().step();
        assertThat(r.finished()).isFalse();
        assertThat(r.attention().quiet()).as("the landed write was announced").isFalse();
        assertThat(r.test(null)).isTrue();
    }

    @Test
    void aReceiveTheMirrorReportedGivesItsSlotBackWithoutATestAndCannotBeTestedAgain() throws Exception {
        Pair p = pair(true);
        MemorySegment words = arena.allocate(8L * Advertisement.SLOTS, 8);
        List<IrecvRequest> receives = new ArrayList<>();
        for (int i = 0; i < Advertisement.SLOTS; i++) {
            IrecvRequest r = p.receive(i);
            assertThat(r).as("receive %d", i).isNotNull();
            r.reportableAt(words, 8L * i, 0x55);
            receives.add(r);
            assertThat(p.send(i)).isNotNull();
            p.wire().step();
            assertThat(r.finished()).isTrue();
        }
        assertThat(p.receive(Advertisement.SLOTS)).as("every slot holds a receive nobody released").isNull();

        // A native host learned that receive 5 is done from the mirror, which says so in its word.
        words.set(JAVA_LONG, 8L * 5, 0x55);
        IrecvRequest reused = p.receive(Advertisement.SLOTS);
        assertThat(reused).as("the reported receive's slot is free again").isNotNull();
        assertThat(p.receive(Advertisement.SLOTS + 1)).as("and only that one").isNull();
        assertThatThrownBy(() -> receives.get(5).test(null)).isInstanceOf(CclException.class)
                .hasMessageContaining("tested again");

        // The mirror may reuse its word once the request's owner recorded the report for good.
        receives.get(6).markReported();
        assertThat(p.receive(Advertisement.SLOTS + 1)).isNotNull();
    }

    @Test
    void aHostCallWhileTheProducingThreadDrainsTheEndIsToldToRetryInsteadOfWaiting() throws Exception {
        Pair p = pair(true);
        IrecvRequest first = p.receive(0);
        assertThat(first).isNotNull();
        assertThat(p.send(0)).isNotNull();
        // The receive's finishing holds the thread that drains the end (the one stepping the engines) inside it.
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        first.onFinish(r -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                p.wire().step();
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the write's landing drains the receive end").isTrue();
        assertThat(p.receive(1)).as("irecv: try again").isNull();
        assertThat(first.test(null)).as("test: not reported done yet").isFalse();
        release.countDown();
        producer.join(30_000);
        assertThat(failed.get()).isNull();
        assertThat(first.finished()).isTrue();
        assertThat(first.test(null)).isTrue();
        assertThat(p.receive(1)).isNotNull();
    }

    @Test
    void aDrainThatFailsOnTheProducingThreadLeavesTheEndToTheHostsNextCall() throws Exception {
        Pair p = pair(true);
        IrecvRequest r = p.receive(0);
        boolean[] thrown = new boolean[1];
        r.onFinish(req -> {
            if (!thrown[0]) {
                thrown[0] = true;
                throw new IllegalStateException("a listener failed on purpose");
            }
        });
        assertThat(p.send(0)).isNotNull();
        p.wire().step();
        assertThat(thrown[0]).as("the drain ran on the stepping thread, which did not see the failure").isTrue();
        assertThat(r.attention().quiet()).as("left for the host to drive").isFalse();
        assertThat(r.test(null)).isTrue();
        assertThat(p.receive(1)).as("the end carries on").isNotNull();
    }

    /** A receive end whose peer is a bare queue pair, which reads the advertisements it is sent. */
    private final class RawSender {
        final RailsWire wire;
        final RecvEndpoint recv;
        final MemorySegment inbox = arena.allocate(Advertisement.MAX_BYTES, 64);
        final MemorySegment data = RailsWire.filled(arena, 64, SEED);
        final MemoryRegion inboxMem;
        final MemoryRegion dataMem;

        RawSender() throws Exception {
            wire = new RailsWire(SEED);
            ends.add(wire);
            recv = wire.recvEnd(false);
            ends.add(recv::close);
            inboxMem = wire.connectingPd.register(inbox, Access.LOCAL_WRITE);
            dataMem = wire.connectingPd.register(data, Access.LOCAL_WRITE);
            assertThat(wire.sendQp.postRecv(1, inboxMem, 0, Advertisement.MAX_BYTES)).isTrue();
        }

        /** The next advertisement that arrives. */
        Advertisement advertisement() throws MalformedMessageException {
            Completion[] got = new Completion[1];
            assertThat(wire.driver.runUntil(() -> (got[0] = wire.sendQp.recvCq().poll()) != null, 1_000_000_000L))
                    .isTrue();
            assertThat(got[0].opcode()).isEqualTo(WorkOpcode.RECV);
            return Advertisement.decode(inbox.asSlice(0, got[0].byteLen()));
        }

        /** Writes {@code length} bytes into advertised buffer 0 with {@code immediate}. */
        void write(Advertisement ad, long length, int immediate) {
            Advertisement.Entry e = ad.entries().get(0);
            assertThat(wire.sendQp.postWriteWithImm(9, dataMem, 0, length, e.address(), (int) e.remoteKey(),
                    immediate)).isTrue();
            wire.step();
        }
    }

    private IrecvRequest receive(RawSender raw, MemorySegment buffer) throws CclException {
        return raw.recv.irecv(new MemorySegment[] {buffer}, new int[] {0},
                new MemoryRegion[] {raw.recv.register(buffer)});
    }

    @Test
    void aWriteWhoseImmediateNamesAnotherSlotFailsTheEnd() throws Exception {
        RawSender raw = new RawSender();
        IrecvRequest r = receive(raw, arena.allocate(8, 64));
        Advertisement ad = raw.advertisement();
        raw.write(ad, 8, Immediate.of(ad.sequence(), 5, 0));
        assertThatThrownBy(() -> raw.wire.await(r, null)).isInstanceOf(CclException.class)
                .hasMessageContaining("names no waiting buffer");
        assertThatThrownBy(() -> receive(raw, arena.allocate(8, 64))).isInstanceOf(CclException.class)
                .hasMessageContaining("connection failed");
    }

    @Test
    void aWriteWhoseImmediateCarriesAnOldSequenceFailsTheEnd() throws Exception {
        RawSender raw = new RawSender();
        IrecvRequest r = receive(raw, arena.allocate(8, 64));
        Advertisement ad = raw.advertisement();
        raw.write(ad, 8, Immediate.of(ad.sequence() + 1, ad.slot(), 0));
        assertThatThrownBy(() -> raw.wire.await(r, null)).hasMessageContaining("names no waiting buffer");
    }

    @Test
    void aWriteWhoseImmediateSetsReservedBitsFailsTheEnd() throws Exception {
        RawSender raw = new RawSender();
        IrecvRequest r = receive(raw, arena.allocate(8, 64));
        Advertisement ad = raw.advertisement();
        raw.write(ad, 8, ad.immediate(0) | 0x0100);
        assertThatThrownBy(() -> raw.wire.await(r, null)).hasMessageContaining("names no waiting buffer");
    }

    @Test
    void aWriteLongerThanItsBufferFailsThatReceive() throws Exception {
        RawSender raw = new RawSender();
        // The buffer lies inside a larger registered region, so rails takes the write; the end must refuse it.
        MemorySegment region = arena.allocate(64, 64);
        IrecvRequest r = raw.recv.irecv(new MemorySegment[] {region.asSlice(0, 8)}, new int[] {0},
                new MemoryRegion[] {raw.recv.register(region)});
        Advertisement ad = raw.advertisement();
        raw.write(ad, 16, ad.immediate(0));
        assertThatThrownBy(() -> raw.wire.await(r, null)).hasMessageContaining("peer wrote 16 bytes into a 8-byte buffer");
    }
}
