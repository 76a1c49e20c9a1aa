package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.discovery.Outcome.Answered;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesChangedRequest;
import io.xdlink.xdomain.packet.XdpType;
import java.util.UUID;

/**
 * Tells the peer our property block changed, as Linux's {@code tb_xdomain_properties_changed} does: a
 * PROPERTIES_CHANGED_REQUEST on the host's work queue, retried 1 s apart until 10 retries are spent. Discovery arms
 * it after the UUID exchange ({@link #start()}, 100 ms); a local service appearing or going arms it again 50 ms
 * later ({@link #serviceChanged()}) without resetting the retries, as Linux does.
 */
final class ChangeNotifier {
    private final Transactions transactions;
    private final long route;
    private final UUID local;
    private final WorkQueue.Work work;
    private int retries;

    ChangeNotifier(WorkQueue queue, String name, Transactions transactions, long route, UUID local) {
        this.transactions = transactions;
        this.route = route;
        this.local = local;
        this.work = queue.work(name + " properties changed", this::send);
    }

    /** Announces a fresh block: 10 retries, first try after 100 ms. */
    void start() {
        retries = PeerDiscovery.RETRIES;
        work.queue(PeerDiscovery.SHORT_TIMEOUT);
    }

    /** A local service came or went. */
    void serviceChanged() {
        work.queue(PeerDiscovery.UPDATE_DELAY);
    }

    /** Discovery stopped in ERROR: no more announcements until it starts again. */
    void stop() {
        work.cancel();
        retries = 0;
    }

    /** The link is gone for good. */
    void close() {
        work.close();
    }

    private void send(Runnable done) {
        XdpHeader header = XdpHeader.of(route, XdpHeader.sequenceFor(retries));
        transactions.send(new PropertiesChangedRequest(header, local), XdpType.PROPERTIES_CHANGED_RESPONSE, o -> {
            if (o instanceof Answered) {
                retries = PeerDiscovery.RETRIES;
            } else if (retries-- > 0) {
                work.queue(PeerDiscovery.DEFAULT_TIMEOUT);
            }
            done.run();
        });
    }
}
