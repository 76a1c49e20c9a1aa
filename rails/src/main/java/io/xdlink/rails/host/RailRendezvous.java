package io.xdlink.rails.host;

import io.xdlink.rails.tcp.TcpRailTransport;
import io.xdlink.xdomain.Scheduler;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where a rail a peer connected meets the local {@code openRail} for the same (peer, link, index), whichever comes
 * first. A rail nobody asks for within the connect timeout is closed, and a newer connection for the same slot
 * replaces an unclaimed older one (the peer reconnected), so nothing waits or leaks for good.
 */
final class RailRendezvous {
    record Key(UUID peer, String linkId, int index) {
    }

    /** One slot: a rail waiting to be claimed, or a caller waiting for a rail. */
    private record Slot(TcpRailTransport rail, CompletableFuture<TcpRailTransport> waiter) {
    }

    private final Scheduler loop;
    private final long expiryNanos;
    private final Map<Key, Slot> slots = new HashMap<>();

    RailRendezvous(Scheduler loop, long expiryNanos) {
        this.loop = loop;
        this.expiryNanos = expiryNanos;
    }

    /** A peer connected {@code rail} for {@code key}. */
    void offer(Key key, TcpRailTransport rail) {
        Slot mine;
        synchronized (this) {
            Slot s = slots.get(key);
            if (s != null && s.waiter() != null && s.waiter().complete(rail)) {
                slots.remove(key);
                return;
            }
            if (s != null && s.rail() != null) {
                s.rail().fail(s.rail().info().name() + ": replaced by a newer connection from the peer", null);
            }
            mine = new Slot(rail, null);
            slots.put(key, mine);
        }
        loop.schedule(expiryNanos, () -> {
            synchronized (this) {
                if (!slots.remove(key, mine)) {
                    return;
                }
            }
            rail.fail(rail.info().name() + ": the peer opened it but nobody here did within "
                    + TimeUnit.NANOSECONDS.toMillis(expiryNanos) + " ms", null);
        });
    }

    /** Waits for the peer's connection for {@code key}, at most {@code timeoutNanos}. */
    TcpRailTransport await(Key key, long timeoutNanos) throws IOException {
        CompletableFuture<TcpRailTransport> waiter = new CompletableFuture<>();
        Slot mine = new Slot(null, waiter);
        synchronized (this) {
            Slot s = slots.get(key);
            if (s != null && s.rail() != null) {
                slots.remove(key);
                return s.rail();
            }
            if (s != null) {
                s.waiter().completeExceptionally(new IOException("rail " + key + " is being opened twice"));
            }
            slots.put(key, mine);
        }
        try {
            return waiter.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            synchronized (this) {
                if (!slots.remove(key, mine)) {
                    return waiter.join(); // handed over just as the wait ended
                }
            }
            throw new SocketTimeoutException("peer " + key.peer() + " did not open rail " + key.index() + " on link "
                    + key.linkId() + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            synchronized (this) {
                slots.remove(key, mine);
            }
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for rail " + key, e);
        }
    }

    /** Fails every waiter and closes every unclaimed rail. */
    void closeAll(String why) {
        synchronized (this) {
            for (Slot s : slots.values()) {
                if (s.rail() != null) {
                    s.rail().fail(why, null);
                } else {
                    s.waiter().completeExceptionally(new IOException(why));
                }
            }
            slots.clear();
        }
    }
}
