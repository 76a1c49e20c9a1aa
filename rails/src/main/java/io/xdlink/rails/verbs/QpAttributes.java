package io.xdlink.rails.verbs;

import java.util.Objects;

/**
 * What a new queue pair is made of.
 *
 * @param pd        the protection domain whose memory regions it may use and expose
 * @param sendCq    where its sends complete
 * @param recvCq    where its receives complete (may be {@code sendCq})
 * @param maxSendWr outstanding sends; 0 means the device's {@code qp_max_send_wr}
 * @param maxRecvWr posted receives; 0 means the device's {@code qp_max_recv_wr}
 */
public record QpAttributes(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr,
                           int maxRecvWr) {
    public QpAttributes {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        if (maxSendWr < 0 || maxSendWr > 65_536) {
            throw new IllegalArgumentException("maxSendWr is 0..65536, not " + maxSendWr);
        }
        if (maxRecvWr < 0 || maxRecvWr > 65_536) {
            throw new IllegalArgumentException("maxRecvWr is 0..65536, not " + maxRecvWr);
        }
    }

    /** One completion queue for both directions, the device's default limits. */
    public static QpAttributes of(ProtectionDomain pd, CompletionQueue cq) {
        return new QpAttributes(pd, cq, cq, 0, 0);
    }
}
