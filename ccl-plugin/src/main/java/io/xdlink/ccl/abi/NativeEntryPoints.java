package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclContext;
import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclLog;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.CclNets;
import io.xdlink.ccl.CclResult;
import io.xdlink.ccl.Comm;
import io.xdlink.ccl.DeviceProperties;
import io.xdlink.ccl.ListenComm;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.Request;
import io.xdlink.ccl.SendComm;
import io.xdlink.ccl.abi.HandleTable.Kind;
import io.xdlink.ccl.engine.EngineRequest;
import io.xdlink.ccl.engine.SendEndpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The version-neutral entry points behind the shim's trampolines, one static method per slot of
 * {@code xdl_java_api_t}. Each returns a negative {@code ncclResult} on failure, else its result (a handle id, a
 * count, a flag; 0 stands for NULL), and catches every {@link Throwable}: an exception escaping an upcall would
 * take the host process down.
 *
 * <p>Native pointers arrive as zero-length segments and are sized here from the ABI's rules; handle ids are checked
 * against {@link HandleTable}, so a stale or foreign pointer from the host is an error, never a crash.
 *
 * <p>Over 400 lines on purpose: one method per slot of the C table, each a few lines of sizing, lookup and error
 * mapping, kept in one class so it reads against {@code ccl_bridge.h}'s table slot by slot.
 */
final class NativeEntryPoints {
    private static final Object LOCK = new Object();
    private static final HandleTable HANDLES = new HandleTable();
    /** The native mirror of every request's state, which lets the shim's test() skip the upcall. */
    static final RequestMirror REQUESTS = new RequestMirror();
    /** Per calling thread, the sizes a finished receive moved, before they are narrowed into the host's array. */
    private static final ThreadLocal<long[]> MOVED = ThreadLocal.withInitial(() -> new long[CclNet.MAX_RECVS]);
    /**
     * All of memory, through which isend, irecv and test reach the host's pointers, which they take as addresses: an
     * upcall makes an object of each pointer argument, and these entry points run per message and per look.
     */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final Map<Integer, MemorySegment[]> DEVICE_STRINGS = new HashMap<>();
    private static volatile CclLog log = CclLog.system();
    private static volatile CclNet net;
    private static long legacyContext;
    /** Calls of {@link #test} so far, counted per thread so that counting costs host threads no shared line. */
    private static final CallCounter TEST_CALLS = new CallCounter();

    /** Calls of {@link #isend} so far, counted like {@link #TEST_CALLS}. */
    private static final CallCounter ISEND_CALLS = new CallCounter();

    private NativeEntryPoints() {
    }

    static long testCalls() {
        return TEST_CALLS.sum();
    }

    static long isendCalls() {
        return ISEND_CALLS.sum();
    }

    /**
     * A send or receive comm as native code holds it: the comm, the requests it handed out, and the block of ids
     * they get, so one comm's host thread never writes where another's does.
     */
    private record NativeComm(Comm comm, Outstanding outstanding, HandleTable.Block requests) {
        static NativeComm of(Comm comm) {
            return new NativeComm(comm, new Outstanding(), HANDLES.block());
        }
    }

    /**
     * Hands a new request of a comm to native code: a handle id, with its state mirrored for the shim's test(),
     * remembered by the comm until Java has forgotten it.
     */
    private static long request(Request r, NativeComm owner) {
        if (r == null) {
            return 0;
        }
        long id = HANDLES.add(owner.requests(), Kind.REQUEST, r);
        if (r instanceof EngineRequest e) {
            REQUESTS.publish(id, e);
            owner.outstanding().add(id);
        }
        return id;
    }

    private static void release(long requestId) {
        HANDLES.remove(requestId, Kind.REQUEST);
        REQUESTS.retire(requestId);
    }

    static void useLog(CclLog newLog) {
        log = newLog;
    }

    static CclLog log() {
        return log;
    }

    private static CclNet net() throws CclException {
        CclNet n = net;
        if (n != null) {
            return n;
        }
        synchronized (LOCK) {
            if (net == null) {
                net = CclNets.fromEnvironment(log);
            }
            return net;
        }
    }

    private static long fail(String entry, Throwable t) {
        try {
            if (t instanceof CclException e) {
                log.warn("NET/xdlink : " + entry + ": " + e.getMessage());
                return -e.result().code();
            }
            log.warn("NET/xdlink : " + entry + " failed: " + t);
        } catch (Throwable ignored) {
            // logging failed too; the code still reaches the host
        }
        return -CclResult.INTERNAL_ERROR.code();
    }

    private static <T> T lookup(long id, Kind kind, Class<T> type, String what) throws CclException {
        Object o = HANDLES.get(id, kind);
        if (o == null) {
            throw CclException.internal(String.format("%s 0x%x is not a live %s handle", what, id,
                    kind.name().toLowerCase(Locale.ROOT)));
        }
        return type.cast(o);
    }

    private static Comm comm(long id) throws CclException {
        Object o = HANDLES.get(id, Kind.SEND);
        if (o == null) {
            o = HANDLES.get(id, Kind.RECV);
        }
        if (o == null) {
            throw CclException.internal(String.format("comm 0x%x is not a live send or receive comm", id));
        }
        return ((NativeComm) o).comm();
    }

    private static NativeComm nativeComm(long id, Kind kind, String what) throws CclException {
        return lookup(id, kind, NativeComm.class, what);
    }

    private static MemoryHandle memoryHandle(long id, int i) throws CclException {
        Object o = HANDLES.get(id, Kind.MEMORY);
        if (o == null) {
            throw CclException.internal(String.format("memory handle %d 0x%x is not a live memory handle", i, id));
        }
        return (MemoryHandle) o;
    }

    static long init(int abi, long commId, int trafficClass) {
        try {
            CclNet n = net();
            if (abi <= 10) {
                // Older hosts init once per process and never finalize: one context serves them all.
                synchronized (LOCK) {
                    if (legacyContext == 0) {
                        legacyContext = HANDLES.add(Kind.CONTEXT, n.init(0, trafficClass));
                    }
                    return legacyContext;
                }
            }
            return HANDLES.add(Kind.CONTEXT, n.init(commId, trafficClass));
        } catch (Throwable t) {
            return fail("init", t);
        }
    }

    static long devices() {
        try {
            return net().devices();
        } catch (Throwable t) {
            return fail("devices", t);
        }
    }

    static long properties(int abi, int dev, MemorySegment out) {
        try {
            DeviceProperties p = net().properties(dev);
            MemorySegment[] strings;
            synchronized (LOCK) {
                strings = DEVICE_STRINGS.computeIfAbsent(dev, d -> new MemorySegment[] {
                    Arena.global().allocateFrom(p.name()),
                    p.pciPath().map(Arena.global()::allocateFrom).orElse(MemorySegment.NULL)});
            }
            PropertiesLayouts.write(abi, out, p, dev, strings[0], strings[1]);
            return 0;
        } catch (Throwable t) {
            return fail("getProperties(" + dev + ")", t);
        }
    }

    static long listen(long ctxId, int dev, MemorySegment handleOut) {
        try {
            CclContext ctx = lookup(ctxId, Kind.CONTEXT, CclContext.class, "context");
            ListenComm l = net().listen(ctx, dev);
            byte[] h = l.handle();
            MemorySegment out = handleOut.reinterpret(CclNet.HANDLE_MAX_BYTES);
            out.fill((byte) 0);
            MemorySegment.copy(h, 0, out, JAVA_BYTE, 0, h.length);
            return HANDLES.add(Kind.LISTEN, l);
        } catch (Throwable t) {
            return fail("listen(" + dev + ")", t);
        }
    }

    static long connect(long ctxId, int dev, int trafficClass, MemorySegment handle) {
        try {
            CclContext ctx = lookup(ctxId, Kind.CONTEXT, CclContext.class, "context");
            MemorySegment native_ = handle.reinterpret(CclNet.HANDLE_MAX_BYTES);
            byte[] h = native_.toArray(JAVA_BYTE);
            SendComm c = net().connect(ctx, dev, trafficClass, h);
            // The connector keeps its stage in the handle, which the host passes again on the next try.
            MemorySegment.copy(h, 0, native_, JAVA_BYTE, 0, h.length);
            if (c == null) {
                return 0;
            }
            long id = HANDLES.add(Kind.SEND, NativeComm.of(c));
            if (c instanceof SendEndpoint s) {
                REQUESTS.publishSendComm(id, s.attention());
            }
            return id;
        } catch (Throwable t) {
            return fail("connect(" + dev + ")", t);
        }
    }

    static long accept(long listenId) {
        try {
            RecvComm c = net().accept(lookup(listenId, Kind.LISTEN, ListenComm.class, "listen comm"));
            return c == null ? 0 : HANDLES.add(Kind.RECV, NativeComm.of(c));
        } catch (Throwable t) {
            return fail("accept", t);
        }
    }

    static long regMr(long commId, MemorySegment data, long size, int type) {
        try {
            if (size < 0) {
                throw CclException.internal("regMr of " + size + " bytes");
            }
            MemoryHandle mh = net().registerMemory(comm(commId), data.reinterpret(size), type);
            return HANDLES.add(Kind.MEMORY, mh);
        } catch (Throwable t) {
            return fail("regMr", t);
        }
    }

    static long deregMr(long commId, long mhId) {
        try {
            Comm c = comm(commId);
            MemoryHandle mh = lookup(mhId, Kind.MEMORY, MemoryHandle.class, "memory handle");
            net().deregisterMemory(c, mh);
            HANDLES.remove(mhId, Kind.MEMORY);
            return 0;
        } catch (Throwable t) {
            return fail("deregMr", t);
        }
    }

    static long isend(long commId, long data, long size, int tag, long mhId) {
        ISEND_CALLS.increment();
        try {
            NativeComm c = nativeComm(commId, Kind.SEND, "send comm");
            MemoryHandle mh = lookup(mhId, Kind.MEMORY, MemoryHandle.class, "memory handle");
            if (size < 0) {
                throw CclException.internal("isend of " + size + " bytes");
            }
            if (data == 0 && size > 0) {
                throw CclException.internal("isend of " + size + " bytes from a NULL buffer");
            }
            c.outstanding().sweep(REQUESTS, HANDLES);
            return request(net().isend((SendComm) c.comm(), MEMORY.asSlice(data, size), tag, mh), c);
        } catch (Throwable t) {
            return fail("isend", t);
        }
    }

    static long irecv(long commId, int n, long data, long sizes, long tags, long mhandles) {
        try {
            NativeComm c = nativeComm(commId, Kind.RECV, "receive comm");
            if (n < 1 || n > CclNet.MAX_RECVS) {
                throw CclException.internal("irecv of " + n + " buffers; 1.." + CclNet.MAX_RECVS + " allowed");
            }
            if (data == 0 || sizes == 0 || tags == 0 || mhandles == 0) {
                throw CclException.internal("irecv with a NULL array of buffers, sizes, tags or memory handles");
            }
            // The host's arrays: void *data[n], size_t sizes[n], int tags[n], void *mhandles[n] (LP64).
            MemorySegment[] buffers = new MemorySegment[n];
            int[] tagArray = new int[n];
            MemoryHandle[] handles = new MemoryHandle[n];
            for (int i = 0; i < n; i++) {
                long size = MEMORY.get(JAVA_LONG, sizes + JAVA_LONG.byteSize() * i);
                if (size < 0) {
                    throw CclException.internal("irecv buffer " + i + " has size " + size);
                }
                long buffer = MEMORY.get(JAVA_LONG, data + ADDRESS.byteSize() * i);
                if (buffer == 0 && size > 0) {
                    throw CclException.internal("irecv buffer " + i + " of " + size + " bytes is NULL");
                }
                buffers[i] = MEMORY.asSlice(buffer, size);
                tagArray[i] = MEMORY.get(JAVA_INT, tags + JAVA_INT.byteSize() * i);
                handles[i] = memoryHandle(MEMORY.get(JAVA_LONG, mhandles + ADDRESS.byteSize() * i), i);
            }
            c.outstanding().sweep(REQUESTS, HANDLES);
            return request(net().irecv((RecvComm) c.comm(), buffers, tagArray, handles), c);
        } catch (Throwable t) {
            return fail("irecv", t);
        }
    }

    static long iflush(long commId, int n, MemorySegment data, MemorySegment sizes, MemorySegment mhandles) {
        try {
            NativeComm c = nativeComm(commId, Kind.RECV, "receive comm");
            if (n < 0 || n > CclNet.MAX_RECVS) {
                throw CclException.internal("iflush of " + n + " buffers; 0.." + CclNet.MAX_RECVS + " allowed");
            }
            MemorySegment[] buffers = new MemorySegment[n];
            MemoryHandle[] handles = new MemoryHandle[n];
            MemorySegment ptrs = data.reinterpret(ADDRESS.byteSize() * n);
            MemorySegment sz = sizes.reinterpret(JAVA_INT.byteSize() * n);
            MemorySegment mh = mhandles.reinterpret(ADDRESS.byteSize() * n);
            for (int i = 0; i < n; i++) {
                int size = sz.getAtIndex(JAVA_INT, i);
                if (size < 0) {
                    throw CclException.internal("iflush buffer " + i + " has size " + size);
                }
                buffers[i] = ptrs.getAtIndex(ADDRESS, i).reinterpret(size);
                handles[i] = memoryHandle(mh.getAtIndex(ADDRESS, i).address(), i);
            }
            return request(net().iflush((RecvComm) c.comm(), buffers, handles), c);
        } catch (Throwable t) {
            return fail("iflush", t);
        }
    }

    static long test(long requestId, long sizes) {
        TEST_CALLS.increment();
        try {
            Request r = lookup(requestId, Kind.REQUEST, Request.class, "request");
            // A host polls test() in a loop: no allocation per call, and none at all when it wants no sizes.
            long[] moved = sizes != 0 ? MOVED.get() : null;
            boolean done;
            try {
                done = net().test(r, moved);
            } catch (CclException e) {
                release(requestId);
                throw e;
            }
            if (!done) {
                return 0;
            }
            release(requestId);
            if (sizes != 0) {
                int count = CclNets.sizeCount(r);
                for (int i = 0; i < count; i++) {
                    MEMORY.set(JAVA_INT, sizes + JAVA_INT.byteSize() * i, (int) Math.min(Integer.MAX_VALUE, moved[i]));
                }
            }
            return 1;
        } catch (Throwable t) {
            return fail("test", t);
        }
    }

    static long closeSend(long id) {
        try {
            NativeComm c = nativeComm(id, Kind.SEND, "send comm");
            REQUESTS.retire(id);
            HANDLES.remove(id, Kind.SEND);
            try {
                net().closeSend((SendComm) c.comm());
            } finally {
                forget(c);
            }
            return 0;
        } catch (Throwable t) {
            return fail("closeSend", t);
        }
    }

    static long closeRecv(long id) {
        try {
            NativeComm c = nativeComm(id, Kind.RECV, "receive comm");
            HANDLES.remove(id, Kind.RECV);
            try {
                net().closeRecv((RecvComm) c.comm());
            } finally {
                forget(c);
            }
            return 0;
        } catch (Throwable t) {
            return fail("closeRecv", t);
        }
    }

    /**
     * A closed comm's requests: what the shim reported is forgotten now; what it did not, the host's tests still
     * release, and the comm's block of ids goes back once the last of them is.
     */
    private static void forget(NativeComm c) {
        c.outstanding().sweep(REQUESTS, HANDLES);
        HANDLES.close(c.requests());
    }

    static long closeListen(long id) {
        try {
            ListenComm c = lookup(id, Kind.LISTEN, ListenComm.class, "listen comm");
            HANDLES.remove(id, Kind.LISTEN);
            net().closeListen(c);
            return 0;
        } catch (Throwable t) {
            return fail("closeListen", t);
        }
    }

    static long finalizeContext(long id) {
        try {
            synchronized (LOCK) {
                if (id == legacyContext) {
                    // The per-process context of older ABIs outlives any one communicator.
                    return 0;
                }
            }
            CclContext ctx = lookup(id, Kind.CONTEXT, CclContext.class, "context");
            HANDLES.remove(id, Kind.CONTEXT);
            net().finalize(ctx);
            return 0;
        } catch (Throwable t) {
            return fail("finalize", t);
        }
    }
}
