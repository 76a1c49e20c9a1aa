package io.xdlink.ccl;

import io.xdlink.ccl.engine.Connection;
import io.xdlink.ccl.engine.Device;
import io.xdlink.ccl.engine.InMemoryConnections;
import io.xdlink.ccl.engine.RegisteredMemory;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device whose connections are {@link InMemoryConnections}: a listener's address is its number; a connect
 * becomes ready on its second poll, so callers must retry as the host does. All ends share one key space.
 */
final class InMemoryDevice implements Device {
    private final InMemoryConnections keys = new InMemoryConnections(1, 1);
    private final Map<Integer, Listen> listeners = new ConcurrentHashMap<>();
    private final AtomicInteger nextListener = new AtomicInteger(1);
    final AtomicInteger closedConnections = new AtomicInteger();
    boolean closed;

    private final class Listen implements Listener {
        final int id;
        final ArrayDeque<Connection> arrived = new ArrayDeque<>();

        Listen(int id) {
            this.id = id;
        }

        @Override
        public byte[] address() {
            return ByteBuffer.allocate(4).putInt(id).array();
        }

        @Override
        public synchronized Connection accept() {
            return arrived.poll();
        }

        @Override
        public void close() {
            listeners.remove(id);
        }
    }

    @Override
    public Listener listen() {
        Listen l = new Listen(nextListener.getAndIncrement());
        listeners.put(l.id, l);
        return l;
    }

    @Override
    public PendingConnection connect(byte[] address) throws CclException {
        if (address.length != 4) {
            throw CclException.internal("bad address");
        }
        int id = ByteBuffer.wrap(address).getInt();
        return new PendingConnection() {
            int polls;
            Connection mine;

            @Override
            public Connection poll() throws CclException {
                Listen l = listeners.get(id);
                if (l == null) {
                    throw new CclException(CclResult.SYSTEM_ERROR, "no listener " + id);
                }
                if (++polls < 2) {
                    return null;
                }
                InMemoryConnections pair = shared();
                synchronized (l) {
                    l.arrived.add(pair.b);
                }
                mine = pair.a;
                return mine;
            }

            @Override
            public void close() {
            }
        };
    }

    private InMemoryConnections shared() {
        return new InMemoryConnections(keys, 4096);
    }

    @Override
    public void close() {
        closed = true;
    }
}
