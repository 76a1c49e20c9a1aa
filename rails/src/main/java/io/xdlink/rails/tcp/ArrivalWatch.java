package io.xdlink.rails.tcp;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * Watches a rail's socket on an {@link IoLoop} for its progress engine, so an engine whose thread parked when idle
 * is woken the moment a frame arrives (or the socket has room again after a refused offer) rather than when its park
 * runs out. The selector is level-triggered, and bytes sit unread in a busy engine's socket most of the time, so a
 * watch that stayed armed would spin the loop: instead readiness wakes the engine once and disarms that readiness,
 * and the engine's thread re-arms it when it finds the socket drained (or full). That costs the loop one wake-up per
 * burst, not per frame, and nothing at all while the engine keeps finding work.
 */
final class ArrivalWatch implements IoLoop.Handler {
    private final SocketChannel channel;
    private final IoLoop loop;
    private volatile Runnable wake;
    private volatile SelectionKey key;
    private volatile boolean stopped;

    /** @param loop the loop to watch on, or null for a rail nobody watches */
    ArrivalWatch(SocketChannel channel, IoLoop loop) {
        this.channel = channel;
        this.loop = loop;
    }

    /** Starts watching for {@code wake}; any thread. Registration happens on the loop, a moment later. */
    void start(Runnable wake) {
        this.wake = wake;
        if (loop == null || !loop.isOpen()) {
            return;
        }
        loop.execute(() -> {
            if (key == null && !stopped && channel.isOpen()) {
                try {
                    // Both, because the engine may have drained or filled the socket before this ran: at worst one
                    // wake the engine did not need.
                    key = loop.register(channel, SelectionKey.OP_READ | SelectionKey.OP_WRITE, this);
                } catch (IOException e) {
                    // The rail is closing; its engine learns that from poll and offer, not from here.
                }
            }
        });
    }

    /**
     * Asks for a wake when {@code op} becomes ready; on the engine's thread. Costs a volatile read when already
     * armed; otherwise one selector wake-up, since a selector in {@code select} sees new interest only when it
     * returns.
     */
    void arm(int op) {
        SelectionKey k = key;
        if (k == null) {
            return;
        }
        try {
            if ((k.interestOps() & op) == 0) {
                k.interestOpsOr(op);
                loop.selectorWakeup();
            }
        } catch (CancelledKeyException e) {
            // Stopped meanwhile: the rail is closing.
        }
    }

    /** On the loop: the socket is readable or writable; disarm what fired and wake the engine. */
    @Override
    public void ready(SelectionKey k) {
        k.interestOpsAnd(~k.readyOps());
        Runnable w = wake;
        if (w != null) {
            w.run();
        }
    }

    /** The loop is closing (or {@link #ready} threw): let go of the socket, which belongs to the engine. */
    @Override
    public void failed(Exception cause) {
        SelectionKey k = key;
        if (k != null) {
            k.cancel();
        }
    }

    /**
     * Stops watching; the rail is closing. Any thread. The loop is woken so that it deregisters the socket at once:
     * until it does, closing the channel does not release the connection.
     */
    void stop() {
        stopped = true;
        SelectionKey k = key;
        if (k != null) {
            k.cancel();
            loop.selectorWakeup();
        }
    }
}
