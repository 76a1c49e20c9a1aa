package io.xdlink.ccl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The 128-byte connection handle that travels from {@link CclNet#listen} to the peer's {@link CclNet#connect}:
 * {@code u32 magic "XDLH", u8 version 1, u8 address length, u8 stage, u8 0, u64 pending-connection id, address}.
 * The host hands {@code connect} the same handle buffer on every retry, so the connector keeps its stage and pending
 * id in it, as RDMA plugins do. Parsing checks every field: the bytes come from the host.
 *
 * @param address   the listener's address on its device
 * @param pendingId 0 before the first connect attempt, then the attempt's id
 */
record ListenHandle(byte[] address, long pendingId) {
    static final int MAGIC = 0x484C4458; // "XDLH" little-endian
    static final int VERSION = 1;
    static final int HEADER_BYTES = 16;
    static final int MAX_ADDRESS_BYTES = CclNet.HANDLE_MAX_BYTES - HEADER_BYTES;

    ListenHandle {
        address = address.clone();
        if (address.length == 0 || address.length > MAX_ADDRESS_BYTES) {
            throw new IllegalArgumentException("listener address of " + address.length + " bytes; 1.."
                    + MAX_ADDRESS_BYTES + " fit in a handle");
        }
    }

    @Override
    public byte[] address() {
        return address.clone();
    }

    /** The handle bytes, exactly {@link CclNet#HANDLE_MAX_BYTES}. */
    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(CclNet.HANDLE_MAX_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) address.length).put((byte) (pendingId == 0 ? 0 : 1))
                .put((byte) 0).putLong(pendingId).put(address);
        return b.array();
    }

    /** Records a pending attempt in the caller's handle buffer, which the host passes again on the next try. */
    static void storePending(byte[] handle, long pendingId) {
        ByteBuffer b = ByteBuffer.wrap(handle).order(ByteOrder.LITTLE_ENDIAN);
        b.put(6, (byte) (pendingId == 0 ? 0 : 1));
        b.putLong(8, pendingId);
    }

    static ListenHandle decode(byte[] handle) throws CclException {
        if (handle == null || handle.length < HEADER_BYTES) {
            throw CclException.internal("connection handle of " + (handle == null ? "no" : handle.length)
                    + " bytes is shorter than its " + HEADER_BYTES + "-byte header");
        }
        ByteBuffer b = ByteBuffer.wrap(handle).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic != MAGIC) {
            throw CclException.internal(String.format("connection handle magic 0x%08x is not xdlink's 0x%08x "
                    + "(a handle from another plugin?)", magic, MAGIC));
        }
        int version = b.get(4) & 0xFF;
        int length = b.get(5) & 0xFF;
        int stage = b.get(6) & 0xFF;
        long pending = b.getLong(8);
        if (version != VERSION) {
            throw CclException.internal("connection handle version " + version + ", expected " + VERSION);
        }
        if (length == 0 || length > MAX_ADDRESS_BYTES || HEADER_BYTES + length > handle.length) {
            throw CclException.internal("connection handle address length " + length + " is outside 1.."
                    + Math.min(MAX_ADDRESS_BYTES, handle.length - HEADER_BYTES));
        }
        if (stage > 1 || (stage == 0) != (pending == 0)) {
            throw CclException.internal("connection handle stage " + stage + " with pending id " + pending
                    + " is inconsistent");
        }
        return new ListenHandle(Arrays.copyOfRange(handle, HEADER_BYTES, HEADER_BYTES + length), pending);
    }
}
