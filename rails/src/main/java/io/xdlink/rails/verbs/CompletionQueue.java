package io.xdlink.rails.verbs;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where finished requests are reported, in the order they finished. Polling never blocks and any thread may poll.
 * The queue never loses a completion: when its ring is full (its owner stopped polling), later completions wait in
 * an overflow list behind the ring, in order, bounded by the requests outstanding.
 */
public final class CompletionQueue {
    private final Device device;
    private final MpmcRing<Completion> ring;
    private final ConcurrentLinkedQueue<Completion> overflow = new ConcurrentLinkedQueue<>();
    private volatile Runnable onPush;

    CompletionQueue(Device device, int capacity) {
        this.device = device;
        this.ring = new MpmcRing<>(capacity);
    }

    public Device device() {
        return device;
    }

    /** The next completion, or null when there is none. */
    public Completion poll() {
        Completion c = ring.poll();
        return c != null ? c : overflow.poll();
    }

    /**
     * Moves up to {@code out.length} completions into {@code out}.
     *
     * @return how many
     */
    public int poll(Completion[] out) {
        int n = 0;
        while (n < out.length) {
            Completion c = poll();
            if (c == null) {
                break;
            }
            out[n++] = c;
        }
        return n;
    }

    /** Completions waiting; exact when nobody is producing or polling. */
    public int size() {
        return ring.size() + overflow.size();
    }

    /** Completions the ring holds before the overflow list is used. */
    public int capacity() {
        return ring.capacity();
    }

    /**
     * Runs {@code listener} after each completion has become pollable, on the thread that produced it (mostly the
     * device's progress thread), so an owner that polls only when told to learns of new completions without
     * polling for them. It must be quick and must not throw. Replaces an earlier listener; null removes it.
     */
    public void onPush(Runnable listener) {
        onPush = listener;
    }

    /**
     * Makes {@code c} pollable, behind every completion before it. The device's engine
     * ({@link io.xdlink.rails.engine}) reports here as requests finish; an application has no reason to.
     */
    public void push(Completion c) {
        if (!overflow.isEmpty() || !ring.offer(c)) {
            overflow.add(c);
        }
        Runnable listener = onPush;
        if (listener != null) {
            listener.run();
        }
    }
}
