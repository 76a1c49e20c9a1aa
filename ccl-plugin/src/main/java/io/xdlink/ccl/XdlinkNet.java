package io.xdlink.ccl;

import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.ccl.engine.RecvEndpoint;
import io.xdlink.ccl.engine.SendEndpoint;
import io.xdlink.rails.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link CclNet} over xdlink devices: contexts, listeners and the connect/accept handshake, memory registration,
 * and the comms of {@link io.xdlink.ccl.engine}, which carry the data. Thread-safe: the host's proxy threads call in
 * concurrently, each comm serialises its own calls.
 */
public final class XdlinkNet implements CclNet {

    /** A device and what it tells the host. */
    record DeviceEntry(PeerDevice device, DeviceProperties properties) {
        DeviceEntry {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(properties, "properties");
        }
    }

    /** A thread that owns nothing: memory it may access, every thread may. */
    private static final Thread ANY_OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private final List<DeviceEntry> devices;
    private final CclLog log;
    private final AtomicLong nextPendingId = new AtomicLong(1);
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final Set<Context> contexts = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private final AutoCloseable owned;

    /**
     * A network over these devices.
     *
     * @param owned closed after the devices (the fabric they run over), or null
     */
    XdlinkNet(List<DeviceEntry> devices, CclLog log, AutoCloseable owned) {
        this.devices = List.copyOf(devices);
        this.log = Objects.requireNonNull(log, "log");
        this.owned = owned;
    }

    private final class Context implements CclContext {
        final long commId;
        final int trafficClass;
        final Set<Object> open = ConcurrentHashMap.newKeySet();
        volatile boolean finalized;

        Context(long commId, int trafficClass) {
            this.commId = commId;
            this.trafficClass = trafficClass;
        }

        @Override
        public long commId() {
            return commId;
        }

        @Override
        public int trafficClass() {
            return trafficClass;
        }
    }

    private record Pending(Context ctx, int dev, PeerDevice.Dialing connection) {
    }

    private static final class Listen implements ListenComm {
        final Context ctx;
        final int dev;
        final PeerDevice.Listening listener;
        final byte[] handle;

        Listen(Context ctx, int dev, PeerDevice.Listening listener, byte[] handle) {
            this.ctx = ctx;
            this.dev = dev;
            this.listener = listener;
            this.handle = handle;
        }

        @Override
        public int device() {
            return dev;
        }

        @Override
        public byte[] handle() {
            return handle.clone();
        }
    }

    private record Memory(Comm owner, MemorySegment region, MemoryRegion registered) implements MemoryHandle {
    }

    @Override
    public CclContext init(long commId, int trafficClass) throws CclException {
        usable();
        Context ctx = new Context(commId, trafficClass);
        contexts.add(ctx);
        return ctx;
    }

    @Override
    public int devices() throws CclException {
        usable();
        return devices.size();
    }

    @Override
    public DeviceProperties properties(int dev) throws CclException {
        return entry(dev).properties();
    }

    @Override
    public ListenComm listen(CclContext ctx, int dev) throws CclException {
        Context c = context(ctx);
        PeerDevice.Listening listener = entry(dev).device().listen();
        byte[] handle;
        try {
            handle = new ListenHandle(listener.address(), 0).encode();
        } catch (IllegalArgumentException e) {
            listener.close();
            throw CclException.internal("device " + dev + " listener: " + e.getMessage());
        }
        Listen l = new Listen(c, dev, listener, handle);
        c.open.add(l);
        return l;
    }

    @Override
    public SendComm connect(CclContext ctx, int dev, int trafficClass, byte[] handle) throws CclException {
        Context c = context(ctx);
        PeerDevice device = entry(dev).device();
        ListenHandle h = ListenHandle.decode(handle);
        Pending p;
        long id = h.pendingId();
        if (id == 0) {
            id = nextPendingId.getAndIncrement();
            p = new Pending(c, dev, device.connect(h.address()));
            pending.put(id, p);
            c.open.add(p);
            ListenHandle.storePending(handle, id);
        } else {
            p = pending.get(id);
            if (p == null || p.ctx() != c || p.dev() != dev) {
                throw CclException.internal("connection handle names attempt " + id
                        + ", which is not pending for this context and device " + dev);
            }
        }
        SendEndpoint send;
        try {
            send = p.connection().poll();
        } catch (CclException e) {
            forget(id, p);
            throw e;
        }
        if (send == null) {
            return null;
        }
        forget(id, p);
        c.open.add(send);
        return send;
    }

    private void forget(long id, Pending p) {
        pending.remove(id);
        p.ctx().open.remove(p);
        p.connection().close();
    }

    @Override
    public RecvComm accept(ListenComm listen) throws CclException {
        Listen l = listenOf(listen);
        RecvEndpoint recv = l.listener.accept();
        if (recv == null) {
            return null;
        }
        l.ctx.open.add(recv);
        return recv;
    }

    @Override
    public MemoryHandle registerMemory(Comm comm, MemorySegment region, int ptrType) throws CclException {
        Objects.requireNonNull(comm, "comm");
        if (ptrType != DeviceProperties.PTR_HOST) {
            throw CclException.internal("regMr of memory type " + ptrType + ": xdlink supports host memory ("
                    + DeviceProperties.PTR_HOST + ") only, as its ptrSupport says");
        }
        entry(comm.device());
        if (!region.isAccessibleBy(ANY_OTHER_THREAD)) {
            throw new CclException(CclResult.INVALID_ARGUMENT, "regMr of memory confined to one thread: the device's "
                    + "progress engine reads and writes it from its own thread (use a shared, auto or global arena)");
        }
        MemoryRegion registered = switch (comm) {
            case SendEndpoint s -> s.register(region);
            case RecvEndpoint r -> r.register(region);
            default -> throw CclException.internal("regMr on a comm xdlink did not make");
        };
        return new Memory(comm, region, registered);
    }

    @Override
    public void deregisterMemory(Comm comm, MemoryHandle handle) throws CclException {
        Memory m = memory(handle);
        if (comm != m.owner()) {
            throw CclException.internal("deregMr through a comm other than the one the memory was registered on");
        }
        m.registered().deregister();
    }

    @Override
    public Request isend(SendComm comm, MemorySegment data, int tag, MemoryHandle handle) throws CclException {
        if (!(comm instanceof SendEndpoint send)) {
            throw CclException.internal("isend on a send comm xdlink did not make");
        }
        long max = entry(comm.device()).properties().maxP2pBytes();
        if (data.byteSize() > max) {
            throw CclException.usage("isend of " + data.byteSize() + " bytes exceeds the device's maxP2pBytes, " + max);
        }
        return send.isend(data, tag, memoryOf(comm, handle).registered());
    }

    @Override
    public Request irecv(RecvComm comm, MemorySegment[] buffers, int[] tags, MemoryHandle[] handles)
            throws CclException {
        if (!(comm instanceof RecvEndpoint recv)) {
            throw CclException.internal("irecv on a receive comm xdlink did not make");
        }
        MemoryRegion[] registered = new MemoryRegion[handles.length];
        for (int i = 0; i < handles.length; i++) {
            registered[i] = memoryOf(comm, handles[i]).registered();
        }
        return recv.irecv(buffers, tags, registered);
    }

    @Override
    public Request iflush(RecvComm comm, MemorySegment[] buffers, MemoryHandle[] handles) throws CclException {
        if (!(comm instanceof RecvEndpoint)) {
            throw CclException.internal("iflush on a receive comm xdlink did not make");
        }
        for (MemoryHandle h : handles) {
            memoryOf(comm, h);
        }
        // Host memory written by the progress engine is visible to every thread once the receive completed.
        return null;
    }

    @Override
    public boolean test(Request request, long[] sizes) throws CclException {
        if (!(request instanceof EngineRequest r)) {
            throw CclException.internal("test of a request xdlink did not make");
        }
        return r.test(sizes);
    }

    @Override
    public void closeSend(SendComm comm) throws CclException {
        if (!(comm instanceof SendEndpoint send)) {
            throw CclException.internal("closeSend of a comm xdlink did not make");
        }
        send.close();
        contexts.forEach(c -> c.open.remove(send));
    }

    @Override
    public void closeRecv(RecvComm comm) throws CclException {
        if (!(comm instanceof RecvEndpoint recv)) {
            throw CclException.internal("closeRecv of a comm xdlink did not make");
        }
        recv.close();
        contexts.forEach(c -> c.open.remove(recv));
    }

    @Override
    public void closeListen(ListenComm comm) throws CclException {
        Listen l = listenOf(comm);
        l.listener.close();
        l.ctx.open.remove(l);
    }

    @Override
    public void finalize(CclContext ctx) throws CclException {
        Context c = context(ctx);
        c.finalized = true;
        contexts.remove(c);
        int leftOpen = closeAll(c);
        if (leftOpen > 0) {
            log.info("NET/xdlink : finalize closed " + leftOpen + " comms the communicator left open");
        }
        // A host may exit right after finalize: what arrived last must be acknowledged before it does, or the
        // peer's last sends fail when this host's rails vanish instead of completing.
        for (DeviceEntry d : devices) {
            d.device().settle();
        }
    }

    private int closeAll(Context c) {
        List<Object> open = new ArrayList<>(c.open);
        c.open.clear();
        for (Object o : open) {
            switch (o) {
                case SendEndpoint s -> s.close();
                case RecvEndpoint r -> r.close();
                case Listen l -> l.listener.close();
                case Pending p -> {
                    pending.values().remove(p);
                    p.connection().close();
                }
                default -> throw new IllegalStateException("unknown open object " + o);
            }
        }
        return open.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Context c : List.copyOf(contexts)) {
            closeAll(c);
        }
        contexts.clear();
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                log.warn("NET/xdlink : closing the fabric failed: " + e);
            }
        }
    }

    private void usable() throws CclException {
        if (closed) {
            throw CclException.internal("xdlink network used after close");
        }
    }

    private DeviceEntry entry(int dev) throws CclException {
        usable();
        if (dev < 0 || dev >= devices.size()) {
            throw CclException.internal("device " + dev + " does not exist; there are " + devices.size());
        }
        return devices.get(dev);
    }

    private Context context(CclContext ctx) throws CclException {
        usable();
        if (!(ctx instanceof Context c) || c.finalized) {
            throw CclException.internal("context is not a live xdlink context");
        }
        return c;
    }

    private static Listen listenOf(ListenComm comm) throws CclException {
        if (!(comm instanceof Listen l)) {
            throw CclException.internal("listen comm xdlink did not make");
        }
        return l;
    }

    private static Memory memoryOf(Comm comm, MemoryHandle handle) throws CclException {
        Memory m = memory(handle);
        if (m.owner() != comm) {
            throw CclException.internal("memory registered on one comm used on another (device " + comm.device()
                    + ")");
        }
        return m;
    }

    private static Memory memory(MemoryHandle handle) throws CclException {
        if (!(handle instanceof Memory m)) {
            throw CclException.internal("memory handle xdlink did not make");
        }
        return m;
    }
}
