package io.xdlink.rails.verbs;

/** A posted receive: where a peer's SEND may put its bytes. Handed to the engine as its own command. */
final class RecvRequest extends Command {
    final QueuePair qp;
    final long wrId;
    final MemoryRegion mr;
    final long offset;
    final long length;

    RecvRequest(QueuePair qp, long wrId, MemoryRegion mr, long offset, long length) {
        this.qp = qp;
        this.wrId = wrId;
        this.mr = mr;
        this.offset = offset;
        this.length = length;
    }

    @Override
    void run(DeviceEngine engine) {
        engine.onPostRecv(this);
    }

    @Override
    void flush() {
        qp.recvDone();
        qp.recvCq().push(new Completion(wrId, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false,
                qp.qpn()));
    }
}
