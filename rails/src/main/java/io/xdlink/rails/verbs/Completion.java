package io.xdlink.rails.verbs;

/**
 * One finished request.
 *
 * @param wrId    the caller's id of the request, {@link #NO_WR_ID} for a refused WRITE with no receive to report on
 * @param opcode  what it was
 * @param status  how it ended
 * @param byteLen bytes moved (sends: the request's length; receives: what arrived)
 * @param imm     the immediate of a WRITE_WITH_IMM or SEND with immediate, when {@code hasImm}
 * @param hasImm  whether {@code imm} is meaningful
 * @param qpn     the local queue pair
 */
public record Completion(long wrId, WorkOpcode opcode, CompletionStatus status, long byteLen, int imm,
                         boolean hasImm, int qpn) {
    /** The id of a completion that reports on no posted request. */
    public static final long NO_WR_ID = -1;

    public boolean isSuccess() {
        return status == CompletionStatus.SUCCESS;
    }
}
