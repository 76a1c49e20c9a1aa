package io.xdlink.rails.engine;

import java.util.ArrayDeque;
import java.util.List;

/**
 * A pool's control frames waiting for a rail with control credit, sent in the order they were queued on the pool's
 * control rail (the first rail up, in the order both ends share, with control credit). A NAK or a DISCONNECT waits
 * while an ACK is owed ({@link QueuedControl#waitsForAck()}), and a DISCONNECT goes on the rail the last ACK went on,
 * behind it, unless that rail is gone. Engine thread only.
 */
final class ControlOutbox {
    private final ArrayDeque<QueuedControl> queue = new ArrayDeque<>();
    private final EngineCounters counters;

    ControlOutbox(EngineCounters counters) {
        this.counters = counters;
    }

    void add(QueuedControl frame) {
        queue.add(frame);
        if (frame instanceof QueuedControl.Nak) {
            counters.nakFramesQueued++;
        }
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Frames waiting, for tests. */
    int size() {
        return queue.size();
    }

    /**
     * Sends what may go now, in order, stopping at the first that may not.
     *
     * @param ackOwed   an ACK is owed: a frame that {@link QueuedControl#waitsForAck() waits for it} waits
     * @param ackVia    the rail the last ACK went on, or null
     * @param pool      the pool whose frames these are (the ACK's rail counts only while it is still the pool's)
     * @param up        the pool's rails that are up, in the order both ends share
     * @return frames sent
     */
    int send(FrameOut out, long now, boolean ackOwed, Rail ackVia, PeerPool pool, List<Rail> up) {
        int work = 0;
        while (!queue.isEmpty()) {
            QueuedControl c = queue.peek();
            if (ackOwed && c.waitsForAck()) {
                break; // the ACK goes first: the NAK or disconnect waits for it to be sent
            }
            Rail r;
            if (c instanceof QueuedControl.Disconnect) {
                // Behind the last ACK on its rail (frames on one rail arrive in order), unless that rail is gone.
                r = ackVia != null && ackVia.isUp() && ackVia.pool == pool ? ackVia : controlRail(up);
                if (r == null || !r.canSendControl()) {
                    break;
                }
            } else {
                r = controlRail(up);
                if (r == null) {
                    break;
                }
            }
            c.writeTo(out);
            if (!r.sendControl(out, now)) {
                break;
            }
            if (c instanceof QueuedControl.Nak) {
                counters.nakFramesSent++;
            }
            queue.poll();
            work++;
        }
        return work;
    }

    /** The rail control frames go on: the first rail up (in the order both ends share) with control credit, or null. */
    static Rail controlRail(List<Rail> up) {
        for (int i = 0; i < up.size(); i++) {
            Rail r = up.get(i);
            if (r.canSendControl()) {
                return r;
            }
        }
        return null;
    }
}
