package io.xdlink.sim.wire;

/**
 * Who a channel wakes, and when: the receiving engine when frames are published or come due, the sending engine
 * when room frees after it was refused, and virtual time where a frame arrives or a ring has room again. Kept apart
 * from the channels because both kinds wake the same way, and the rules (a wake covers every later deadline, a
 * refused sender is woken once, not per frame) are easy to get wrong twice.
 *
 * <p>The hooks are set from the engines' threads and read by both ends, so they are volatile; the deadlines already
 * covered by a scheduled real-time wake belong each to one end's thread.
 */
final class ChannelWakes {
    private final Waker waker;
    private volatile Runnable receiverWake;
    private volatile Runnable senderWake;
    private volatile boolean senderWaiting;
    // Sender's thread.
    private long publishWakeCovered = Long.MIN_VALUE;
    private long roomWakeCovered = Long.MIN_VALUE;
    // Receiver's thread.
    private long pollWakeCovered = Long.MIN_VALUE;

    ChannelWakes(Waker waker) {
        this.waker = waker;
    }

    /** Sets the hooks (either may be null, which keeps the one set before). */
    void set(Runnable whenPublished, Runnable whenRoom) {
        if (whenPublished != null) {
            receiverWake = whenPublished;
        }
        if (whenRoom != null) {
            senderWake = whenRoom;
        }
    }

    /** Frames were published (sender's thread): wakes the receiver if {@code wake}. */
    void published(boolean wake) {
        Runnable w = receiverWake;
        if (wake && w != null) {
            w.run();
        }
    }

    /** The receiver's ring had no room for the sender (sender's thread): it is woken when the receiver frees some. */
    void senderRefused() {
        senderWaiting = true;
    }

    /** The receiver took frames (receiver's thread): wakes a sender that was refused, once. */
    void roomFreed() {
        if (senderWaiting) {
            senderWaiting = false;
            Runnable w = senderWake;
            if (w != null) {
                w.run();
            }
        }
    }

    /** Makes virtual time stop at {@code deadline}. */
    void stopAt(long deadline) {
        waker.wakeAt(deadline);
    }

    /** A frame just sent arrives at {@code arrival} (sender's thread): time stops there and the receiver wakes. */
    void sentFrameDueAt(long arrival, long now) {
        waker.wakeAt(arrival);
        publishWakeCovered = waker.wakeLater(arrival, now, publishWakeCovered, receiverWake);
    }

    /** The next frame to take arrives at {@code arrival} (receiver's thread): time stops there and it wakes. */
    void nextFrameDueAt(long arrival, long now) {
        waker.wakeAt(arrival);
        pollWakeCovered = waker.wakeLater(arrival, now, pollWakeCovered, receiverWake);
    }

    /** The sender's TX ring has room at {@code at} (sender's thread): in real time a scheduled wake tells it. */
    void roomAt(long at, long now) {
        roomWakeCovered = waker.wakeLater(at, now, roomWakeCovered, senderWake);
    }
}
