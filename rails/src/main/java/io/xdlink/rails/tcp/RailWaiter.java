package io.xdlink.rails.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * The selector a progress thread waits on when it has nothing to do: the TCP rails that thread polls register with
 * it, so a frame arriving (or room to send appearing) wakes the thread at once instead of at the end of a park.
 * One per thread that idles with {@link TcpIdleStrategy}; closed when that thread is gone.
 */
final class RailWaiter {
    private static final ThreadLocal<RailWaiter> CURRENT = new ThreadLocal<>();
    private static final Cleaner CLEANER = Cleaner.create();

    final Selector selector;

    private RailWaiter(Selector selector) {
        this.selector = selector;
    }

    /** The calling thread's waiter, or null when it does not idle on one. */
    static RailWaiter current() {
        return CURRENT.get();
    }

    /** The calling thread's waiter, made on first use. */
    static RailWaiter forCurrentThread() {
        RailWaiter w = CURRENT.get();
        if (w == null) {
            try {
                w = new RailWaiter(Selector.open());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open a selector to idle on", e);
            }
            CURRENT.set(w);
            Selector s = w.selector;
            // The thread holds the only reference; once it has ended, its selector's descriptors go too.
            CLEANER.register(Thread.currentThread(), () -> IoLoop.closeQuietly(s));
        }
        return w;
    }

    /** Waits until a registered rail is ready or {@code millis} pass. */
    void await(long millis) {
        try {
            selector.select(millis);
            selector.selectedKeys().clear();
        } catch (IOException e) {
            throw new UncheckedIOException("waiting on rails failed", e);
        }
    }

    /**
     * Cancels the registrations of the rails ({@link TcpRailTransport}s) with this selector and has the selector
     * forget them at once, so their sockets carry no waiter of this thread's until the rails register again; other
     * channels stay. On the waiter's own thread.
     */
    void releaseRails() {
        boolean any = false;
        for (SelectionKey k : selector.keys()) {
            if (k.isValid() && k.attachment() instanceof TcpRailTransport) {
                k.cancel();
                any = true;
            }
        }
        if (any) {
            try {
                selector.selectNow();
                selector.selectedKeys().clear();
            } catch (IOException e) {
                throw new UncheckedIOException("letting go of rails failed", e);
            }
        }
    }

    /** Closes the calling thread's waiter now (a thread that stops idling on rails but lives on). */
    static void closeCurrent() {
        RailWaiter w = CURRENT.get();
        if (w != null) {
            CURRENT.remove();
            IoLoop.closeQuietly(w.selector);
        }
    }
}
