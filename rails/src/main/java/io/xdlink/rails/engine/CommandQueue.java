package io.xdlink.rails.engine;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Many producers, one consumer (the progress engine), commands linked through themselves: a producer swaps
 * itself in as the tail with one atomic exchange, so a post never waits for another thread.
 */
final class CommandQueue {
    private final Command stub = new Command() {
        @Override
        protected void run(DeviceEngine engine) {
        }
    };
    private final AtomicReference<Command> tail = new AtomicReference<>(stub);
    private Command head = stub;

    void push(Command c) {
        c.next = null;
        Command prev = tail.getAndSet(c);
        prev.next = c;
    }

    /** The oldest command, or null when none is (completely) queued. Engine thread only. */
    Command poll() {
        Command h = head;
        Command next = h.next;
        if (h == stub) {
            if (next == null) {
                return null;
            }
            head = next;
            h = next;
            next = next.next;
        }
        if (next != null) {
            head = next;
            return h;
        }
        if (h != tail.get()) {
            return null;
        }
        push(stub);
        next = h.next;
        if (next != null) {
            head = next;
            return h;
        }
        return null;
    }
}
