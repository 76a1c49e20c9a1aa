package io.xdlink.rails.engine;

/**
 * A rail's unsequenced frames (HELLO, CREDIT): they carry an id of their own instead of a sequence, and at most
 * {@link Rail#UNSEQUENCED_BUDGET} may be unconfirmed at once, so together with the room {@link SendCredit} keeps
 * back they cannot overflow the peer's ring. The peer confirms them by echoing the last id it saw in every frame's
 * header; one unconfirmed for a while (lost, or stuck in a ring nobody polls) is written off. Engine thread only.
 */
final class UnsequencedBudget {
    private int sent;
    private int confirmed;
    private long lastSentAt;
    private int received;

    /** Whether one more may go at {@code now}; what is unconfirmed for {@code writeOffAfter} is written off. */
    boolean allows(long now, long writeOffAfter) {
        if (sent - confirmed < Rail.UNSEQUENCED_BUDGET) {
            return true;
        }
        if (now - lastSentAt >= writeOffAfter) {
            confirmed = sent;
            return true;
        }
        return false;
    }

    /** The id the next one carries. */
    int nextId() {
        return sent + 1;
    }

    /** A HELLO went: counted, but it does not restart the write-off clock. */
    void helloSent() {
        sent++;
    }

    /** A CREDIT went at {@code now}. */
    void creditSent(long now) {
        sent++;
        lastSentAt = now;
    }

    /** A frame's header echoed the last id the peer saw (16 bits of it). */
    void onEcho(int echo) {
        int outstanding = (sent - echo) & 0xFFFF;
        if (outstanding < sent - confirmed) {
            confirmed = sent - outstanding;
        }
    }

    /** The peer's unsequenced frame {@code id} arrived. */
    void onReceived(int id) {
        if (id - received > 0) {
            received = id;
        }
    }

    /** What this side's frames echo: the last id it saw from the peer, 16 bits of it. */
    int echo() {
        return received & 0xFFFF;
    }
}
