package io.xdlink.cluster;

/**
 * One step of a stream on one host, as NCCL's ring and tree primitives do them (send, recvReduceSend,
 * recvCopySend, recvReduceCopySend, recv): take the next message from {@code recvFrom} (if any), combine it with
 * local data, keep the result at {@code dst} (if any) and send it on to {@code sendTo} (if any). A step runs after
 * the step before it in its stream, and after step {@code afterStep} of stream {@code afterStream} when that is set
 * (a tree's root sends down what its reduction made).
 *
 * @param recvFrom    the host whose next message this step takes, or -1
 * @param sendTo      the host this step's result goes to, or -1
 * @param reduce      combine the message with the local data (else the message, or the local data, is the result)
 * @param local       the local operand's buffer, or null
 * @param localOff    its byte offset
 * @param dst         where the result stays, or null
 * @param dstOff      its byte offset
 * @param bytes       bytes the step moves
 * @param afterStream a stream this step waits for, or -1
 * @param afterStep   the step of that stream that must have run
 */
record Step(int recvFrom, int sendTo, boolean reduce, Buffer local, long localOff, Buffer dst, long dstOff,
            long bytes, int afterStream, int afterStep) {

    /** A host's two buffers; in place they overlap as nccl-tests lays them out. */
    enum Buffer { INPUT, OUTPUT }

    Step {
        if (reduce && (recvFrom < 0 || local == null)) {
            throw new IllegalArgumentException("a reducing step needs a message and a local operand");
        }
        if (recvFrom < 0 && local == null) {
            throw new IllegalArgumentException("a step without a message needs local data");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("a step moves at least one byte, not " + bytes);
        }
    }

    static Step send(int to, Buffer local, long localOff, Buffer dst, long dstOff, long bytes) {
        return new Step(-1, to, false, local, localOff, dst, dstOff, bytes, -1, -1);
    }

    static Step recv(int from, int to, boolean reduce, Buffer local, long localOff, Buffer dst, long dstOff,
                     long bytes) {
        return new Step(from, to, reduce, local, localOff, dst, dstOff, bytes, -1, -1);
    }

    Step after(int stream, int step) {
        return new Step(recvFrom, sendTo, reduce, local, localOff, dst, dstOff, bytes, stream, step);
    }
}
