package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;

/** A posted receive: where a peer's SEND may put its bytes. Handed to the engine as its own command. */
public final class RecvRequest extends Command {
    final QpCore qp;
    final long wrId;
    final MemoryRegion mr;
    final long offset;
    final long length;

    public RecvRequest(QpCore qp, long wrId, MemoryRegion mr, long offset, long length) {
        this.qp = qp;
        this.wrId = wrId;
        this.mr = mr;
        this.offset = offset;
        this.length = length;
    }

    @Override
    protected void run(DeviceEngine engine) {
        engine.onPostRecv(this);
    }

    @Override
    protected void flush() {
        qp.recvDone();
        qp.recvCq().push(new Completion(wrId, WorkOpcode.RECV, CompletionStatus.WR_FLUSH_ERROR, 0, 0, false,
                qp.qpn()));
    }
}
