package io.xdlink.ccl.engine;

import io.xdlink.ccl.CclException;
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
 * Where a receive is finished and when its slot is free again: on a connection that lets its owner drain from the
 * completion listener, the write that lands finishes the receive on the producing thread, before anyone tests it;
 * a receive a native mirror reported done gives its slot back without a test; a host's call never waits for such
 * a drain.
 */
class RecvEndpointTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_2ECL);

    private final Arena arena = Arena.ofShared();
    private final List<AutoCloseable> ends = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable e : ends) {
            e.close();
        }
        arena.close();
    }

    private record Pair(InMemoryConnections wire, SendEndpoint send, RecvEndpoint recv, MemorySegment src,
                        MemorySegment dst, RegisteredMemory srcMem, RegisteredMemory dstMem) {
        RecvRequest receive(int i) throws CclException {
            return recv.irecv(new MemorySegment[] {dst.asSlice(8L * i, 8)}, new int[] {7},
                    new RegisteredMemory[] {dstMem});
        }

        SendRequest send(int i) throws CclException {
            return send.isend(src.asSlice(8L * i, 8), 7, srcMem);
        }
    }

    private Pair pair(InMemoryConnections wire) throws CclException {
        SendEndpoint send = new SendEndpoint(0, wire.a);
        RecvEndpoint recv = new RecvEndpoint(0, wire.b);
        ends.add(send::close);
        ends.add(recv::close);
        MemorySegment src = InMemoryConnections.filled(arena, 8 * 64, SEED);
        MemorySegment dst = arena.allocate(8 * 64, 64);
        return new Pair(wire, send, recv, src, dst, wire.register(src), wire.register(dst));
    }

    @Test
    void aDrainingConnectionFinishesTheReceiveWhereItsWriteLandsBeforeAnyTest() throws CclException {
        Pair p = pair(new InMemoryConnections(SEED, 64).draining());
        RecvRequest r = p.receive(0);
        assertThat(r).isNotNull();
        int polls = p.wire().b.polls;
        SendRequest s = p.send(0);
        assertThat(s).isNotNull();
        assertThat(r.finished()).as("finished inside the sender's isend, on its thread").isTrue();
        assertThat(r.attention().quiet()).as("taken in and counted: the end does not look busy for it").isTrue();
        assertThat(r.failed()).isFalse();
        assertThat(r.size(0)).isEqualTo(8);
        assertThat(p.wire().b.polls).as("the receive end drained its connection from the listener")
                .isGreaterThan(polls);
        assertThat(p.dst().get(JAVA_LONG, 0)).isEqualTo(p.src().get(JAVA_LONG, 0));
        // The write's own completion came while the sender was inside its isend: it waits for the sender's test.
        assertThat(s.finished()).as("a thread holding the end's lock does not drain that end").isFalse();
        long[] sizes = new long[1];
        assertThat(r.test(sizes)).isTrue();
        assertThat(sizes[0]).isEqualTo(8);
        assertThat(s.test(sizes)).isTrue();
    }

    @Test
    void aNotifyingConnectionThatDoesNotAllowDrainingLeavesTheReceiveToItsTest() throws CclException {
        Pair p = pair(new InMemoryConnections(SEED, 64).notifying());
        RecvRequest r = p.receive(0);
        int polls = p.wire().b.polls;
        assertThat(p.send(0)).isNotNull();
        assertThat(r.finished()).isFalse();
        assertThat(p.wire().b.polls).isEqualTo(polls);
        assertThat(r.test(null)).isTrue();
    }

    @Test
    void aReceiveTheMirrorReportedGivesItsSlotBackWithoutATestAndCannotBeTestedAgain() throws CclException {
        Pair p = pair(new InMemoryConnections(SEED, 64).draining());
        MemorySegment words = arena.allocate(8L * Advertisement.SLOTS, 8);
        List<RecvRequest> receives = new ArrayList<>();
        for (int i = 0; i < Advertisement.SLOTS; i++) {
            RecvRequest r = p.receive(i);
            assertThat(r).as("receive %d", i).isNotNull();
            r.reportableAt(words, 8L * i, 0x55);
            receives.add(r);
            assertThat(p.send(i)).isNotNull();
            assertThat(r.finished()).isTrue();
        }
        assertThat(p.receive(Advertisement.SLOTS)).as("every slot holds a receive nobody released").isNull();

        // A native host learned that receive 5 is done from the mirror, which says so in its word.
        words.set(JAVA_LONG, 8L * 5, 0x55);
        RecvRequest reused = p.receive(Advertisement.SLOTS);
        assertThat(reused).as("the reported receive's slot is free again").isNotNull();
        assertThat(p.receive(Advertisement.SLOTS + 1)).as("and only that one").isNull();
        assertThatThrownBy(() -> receives.get(5).test(null)).isInstanceOf(CclException.class)
                .hasMessageContaining("tested again");

        // The mirror may reuse its word once the request's owner recorded the report for good.
        receives.get(6).markReported();
        assertThat(p.receive(Advertisement.SLOTS + 1)).isNotNull();
    }

    /** A connection that, once armed, holds its next poll until released: a drain caught in the middle. */
    private static final class HeldPoll implements Connection {
        private final Connection inner;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile boolean armed;
        private volatile boolean throwing;

        HeldPoll(Connection inner) {
            this.inner = inner;
        }

        @Override
        public int poll(CompletionHandler handler, int max) {
            if (throwing) {
                throw new IllegalStateException("poll failed on purpose");
            }
            if (armed) {
                armed = false;
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return inner.poll(handler, max);
        }

        @Override
        public long maxWriteBytes() {
            return inner.maxWriteBytes();
        }

        @Override
        public boolean postWrite(long workId, MemorySegment source, RegisteredMemory sourceMemory,
                                 RemoteBuffer target) {
            return inner.postWrite(workId, source, sourceMemory, target);
        }

        @Override
        public boolean postWriteWithImmediate(long workId, MemorySegment source, RegisteredMemory sourceMemory,
                                              RemoteBuffer target, int immediate) {
            return inner.postWriteWithImmediate(workId, source, sourceMemory, target, immediate);
        }

        @Override
        public RegisteredMemory register(MemorySegment region) {
            return inner.register(region);
        }

        @Override
        public boolean postSend(long workId, RegisteredMemory memory, MemorySegment message) {
            return inner.postSend(workId, memory, message);
        }

        @Override
        public boolean postReceive(long workId, RegisteredMemory memory, MemorySegment buffer) {
            return inner.postReceive(workId, memory, buffer);
        }

        @Override
        public boolean isOpen() {
            return inner.isOpen();
        }

        @Override
        public boolean onCompletion(Runnable listener) {
            return inner.onCompletion(listener);
        }

        @Override
        public boolean pollFromListener() {
            return inner.pollFromListener();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /** Two ends over a draining wire whose receive side polls through a {@link HeldPoll}. */
    private record HeldEnds(InMemoryConnections wire, HeldPoll held, SendEndpoint send, RecvEndpoint recv) {
    }

    private HeldEnds heldEnds() throws CclException {
        InMemoryConnections wire = new InMemoryConnections(SEED, 64).draining();
        HeldPoll held = new HeldPoll(wire.b);
        SendEndpoint send = new SendEndpoint(0, wire.a);
        RecvEndpoint recv = new RecvEndpoint(0, held);
        ends.add(send::close);
        ends.add(recv::close);
        return new HeldEnds(wire, held, send, recv);
    }

    @Test
    void aHostCallWhileTheProducingThreadDrainsTheEndIsToldToRetryInsteadOfWaiting() throws Exception {
        HeldEnds pair = heldEnds();
        InMemoryConnections wire = pair.wire();
        HeldPoll held = pair.held();
        SendEndpoint send = pair.send();
        RecvEndpoint recv = pair.recv();
        MemorySegment src = InMemoryConnections.filled(arena, 16, SEED);
        MemorySegment dst = arena.allocate(16, 64);
        RegisteredMemory srcMem = wire.register(src);
        RegisteredMemory dstMem = wire.register(dst);
        RecvRequest first = recv.irecv(new MemorySegment[] {dst.asSlice(0, 8)}, new int[] {1},
                new RegisteredMemory[] {dstMem});
        assertThat(first).isNotNull();

        held.armed = true;
        AtomicReference<Object> sent = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                sent.set(send.isend(src.asSlice(0, 8), 1, srcMem));
            } catch (CclException | RuntimeException e) {
                sent.set(e);
            }
        });
        assertThat(held.entered.await(30, TimeUnit.SECONDS)).as("the write's landing drains the receive end")
                .isTrue();
        // The producing thread is inside the receive end's drain: the host's calls return at once.
        assertThat(recv.irecv(new MemorySegment[] {dst.asSlice(8, 8)}, new int[] {1},
                new RegisteredMemory[] {dstMem})).as("irecv: try again").isNull();
        assertThat(first.test(null)).as("test: not reported done yet").isFalse();
        held.release.countDown();
        producer.join(30_000);
        assertThat(sent.get()).isInstanceOf(SendRequest.class);
        assertThat(first.finished()).isTrue();
        assertThat(first.test(null)).isTrue();
        assertThat(recv.irecv(new MemorySegment[] {dst.asSlice(8, 8)}, new int[] {1},
                new RegisteredMemory[] {dstMem})).isNotNull();
    }

    @Test
    void aDrainThatFailsOnTheProducingThreadLeavesTheFailureToTheHostsNextCall() throws CclException {
        HeldEnds pair = heldEnds();
        InMemoryConnections wire = pair.wire();
        HeldPoll held = pair.held();
        SendEndpoint send = pair.send();
        RecvEndpoint recv = pair.recv();
        MemorySegment src = InMemoryConnections.filled(arena, 8, SEED);
        MemorySegment dst = arena.allocate(8, 64);
        RegisteredMemory dstMem = wire.register(dst);
        RecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {1}, new RegisteredMemory[] {dstMem});
        held.throwing = true;
        SendRequest s = send.isend(src, 1, wire.register(src));
        assertThat(s).as("the producing thread (here the sender) never sees the receive end's failure").isNotNull();
        assertThat(r.finished()).isFalse();
        assertThat(r.attention().quiet()).as("left for the host to drive").isFalse();
        assertThatThrownBy(() -> r.test(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("on purpose");
        held.throwing = false;
        assertThat(r.test(null)).isTrue();
    }
}
