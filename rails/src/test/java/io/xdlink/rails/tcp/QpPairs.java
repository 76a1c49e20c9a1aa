package io.xdlink.rails.tcp;

import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;

/** Connects a queue pair between two running devices, for tests over real rails. */
final class QpPairs {
    private QpPairs() {
    }

    /** The two ends, the listening device's first. */
    record Pair(QueuePair listening, QueuePair connecting) {
    }

    /**
     * Listens on {@code listening}, connects from {@code connecting} and waits until both ends are up.
     *
     * @throws AssertionError when the connection fails or does not come up in time
     */
    static Pair connect(Device listening, QpAttributes listeningAttributes, Device connecting,
                        QpAttributes connectingAttributes) throws Exception {
        Listener l = listening.listen();
        Connecting c = connecting.connect(l.handle(), connectingAttributes);
        QueuePair[] ends = new QueuePair[2];
        Await.until("the queue pair to connect", () -> {
            if (ends[0] == null) {
                ends[0] = l.accept(listeningAttributes);
            }
            if (ends[1] == null) {
                try {
                    ends[1] = c.poll();
                } catch (ConnectionFailedException e) {
                    throw new AssertionError(e);
                }
            }
            return ends[0] != null && ends[1] != null;
        });
        return new Pair(ends[0], ends[1]);
    }
}
