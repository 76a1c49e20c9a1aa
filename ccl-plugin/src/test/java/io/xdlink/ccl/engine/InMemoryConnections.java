package io.xdlink.ccl.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Two connection ends joined in memory, for testing the protocol without a fabric: a write lands in the target
 * region at once if its key and bounds are right (else both ends see an error), sends need a posted receive, and
 * every end has a bounded send queue so "cannot post now" happens. Completions are delivered in posting order.
 */
public final class InMemoryConnections {
    private final Map<Long, MemorySegment> regions;
    private final SplittableRandom keys;
    public final End a;
    public final End b;
    private boolean notifying;
    private boolean draining;

    public InMemoryConnections(long seed, int queueDepth) {
        this(new SplittableRandom(seed), new java.util.concurrent.ConcurrentHashMap<>(), queueDepth);
    }

    /** A pair whose writes see the memory registered through {@code keysFrom}. */
    public InMemoryConnections(InMemoryConnections keysFrom, int queueDepth) {
        this(keysFrom.keys, keysFrom.regions, queueDepth);
    }

    private InMemoryConnections(SplittableRandom keys, Map<Long, MemorySegment> regions, int queueDepth) {
        this.keys = keys;
        this.regions = regions;
        a = new End(queueDepth);
        b = new End(queueDepth);
        a.peer = b;
        b.peer = a;
    }

    /**
     * Makes both ends report completions through {@link Connection#onCompletion} as they are produced (and on
     * close, as a failing queue pair's flush would), so their owners can skip polling while nothing arrived.
     */
    public InMemoryConnections notifying() {
        notifying = true;
        return this;
    }

    /**
     * Makes both ends notifying and lets their owners drain from the listener ({@link Connection#pollFromListener}):
     * a completion is then taken in on the thread that produced it, inside the peer's post.
     */
    public InMemoryConnections draining() {
        notifying = true;
        draining = true;
        return this;
    }

    public RegisteredMemory register(MemorySegment segment) {
        long key;
        synchronized (keys) {
            key = keys.nextLong();
        }
        regions.put(key, segment);
        return new RegisteredMemory() {
            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public long remoteKey() {
                return key;
            }

            @Override
            public void close() {
                regions.remove(key);
            }
        };
    }

    private sealed interface Event permits Done, Received, Imm {
    }

    private record Done(long workId, String error) implements Event {
    }

    private record Received(long workId, MemorySegment message) implements Event {
    }

    private record Imm(int immediate, long length, String error) implements Event {
    }

    public final class End implements Connection {
        private final int queueDepth;
        private final ArrayDeque<Event> events = new ArrayDeque<>();
        private final ArrayDeque<long[]> receives = new ArrayDeque<>();
        private final Map<Long, MemorySegment> receiveBuffers = new HashMap<>();
        private final ArrayDeque<Runnable> pendingSends = new ArrayDeque<>();
        End peer;
        boolean open = true;
        int outstanding;
        int writesPosted;
        /** How many times the owner polled this end. */
        public int polls;
        private Runnable listener;

        End(int queueDepth) {
            this.queueDepth = queueDepth;
        }

        @Override
        public long maxWriteBytes() {
            return Connection.MIN_WRITE_BYTES;
        }

        private boolean room() {
            return open && outstanding < queueDepth;
        }

        @Override
        public boolean postWrite(long workId, MemorySegment source, RegisteredMemory sourceMemory, RemoteBuffer target) {
            return write(workId, source, target, null);
        }

        @Override
        public boolean postWriteWithImmediate(long workId, MemorySegment source, RegisteredMemory sourceMemory,
                                              RemoteBuffer target, int immediate) {
            return write(workId, source, target, immediate);
        }

        private boolean write(long workId, MemorySegment source, RemoteBuffer target, Integer immediate) {
            if (!room()) {
                return false;
            }
            if (source.byteSize() > maxWriteBytes()) {
                throw new IllegalArgumentException("write of " + source.byteSize() + " bytes");
            }
            outstanding++;
            writesPosted++;
            MemorySegment region = regions.get(target.remoteKey());
            String error = null;
            if (region == null) {
                error = "remote access error: unknown key";
            } else if (target.offset() < 0 || source.byteSize() > region.byteSize() - target.offset()
                    || region.address() + target.offset() != target.address()) {
                error = "remote access error: out of bounds";
            } else {
                MemorySegment.copy(source, 0, region, target.offset(), source.byteSize());
            }
            add(new Done(workId, error));
            if (immediate != null) {
                peer.add(new Imm(immediate, source.byteSize(), error));
            }
            return true;
        }

        @Override
        public RegisteredMemory register(MemorySegment region) {
            return InMemoryConnections.this.register(region);
        }

        @Override
        public boolean postSend(long workId, RegisteredMemory memory, MemorySegment message) {
            if (!room()) {
                return false;
            }
            outstanding++;
            byte[] copy = message.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            pendingSends.add(() -> deliver(workId, copy));
            pump();
            return true;
        }

        private void deliver(long workId, byte[] bytes) {
            long[] r = peer.receives.poll();
            MemorySegment buf = peer.receiveBuffers.remove(r[0]);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, buf, 0, bytes.length);
            peer.add(new Received(r[0], buf.asSlice(0, bytes.length)));
            add(new Done(workId, null));
        }

        private void add(Event e) {
            events.add(e);
            if (listener != null) {
                listener.run();
            }
        }

        @Override
        public boolean pollFromListener() {
            return draining;
        }

        @Override
        public boolean onCompletion(Runnable l) {
            listener = l;
            return notifying;
        }

        /** Receiver-not-ready: a send waits until the peer has posted a receive. */
        void pump() {
            while (!pendingSends.isEmpty() && !peer.receives.isEmpty()) {
                pendingSends.poll().run();
            }
        }

        @Override
        public boolean postReceive(long workId, RegisteredMemory memory, MemorySegment buffer) {
            if (!open) {
                return false;
            }
            receives.add(new long[] {workId});
            receiveBuffers.put(workId, buffer);
            peer.pump();
            return true;
        }

        @Override
        public int poll(CompletionHandler handler, int max) {
            polls++;
            pump();
            int n = 0;
            Event e;
            while (n < max && (e = events.poll()) != null) {
                n++;
                switch (e) {
                    case Done d -> {
                        outstanding--;
                        handler.onPostComplete(d.workId(), d.error());
                    }
                    case Received r -> handler.onReceive(r.workId(), r.message(), null);
                    case Imm i -> handler.onImmediate(i.immediate(), i.length(), i.error());
                }
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return open && peer.open;
        }

        @Override
        public void close() {
            open = false;
            for (End e : new End[] {this, peer}) {
                if (e.listener != null) {
                    e.listener.run();
                }
            }
        }
    }

    static MemorySegment filled(Arena arena, long size, long seed) {
        MemorySegment s = arena.allocate(Math.max(1, size), 64).asSlice(0, size);
        SplittableRandom r = new SplittableRandom(seed);
        for (long i = 0; i < size; i++) {
            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        return s;
    }
}
