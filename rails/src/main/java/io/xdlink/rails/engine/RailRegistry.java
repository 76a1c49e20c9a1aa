package io.xdlink.rails.engine;

import io.xdlink.rails.frame.FrameLayout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * The device's rails and the pools they form, found by number (an ACK names rails by the number each side gave its
 * own) and by peer. It only keeps them: what a rail's coming, going or failing means is the engine's to decide.
 * Rails keep the order they joined in and pools the order they formed in: each duty cycle walks both lists, and
 * both orders decide what goes out first. Engine thread only.
 */
final class RailRegistry {
    private final Rail[] byNumber = new Rail[FrameLayout.MAX_ACK_RAILS];
    private final List<Rail> rails = new ArrayList<>();
    private final Map<UUID, PeerPool> pools = new HashMap<>();
    private final List<PeerPool> poolList = new ArrayList<>();

    /** The lowest rail number free, or -1 when the device has {@link FrameLayout#MAX_ACK_RAILS} rails already. */
    int freeNumber() {
        for (int i = 0; i < byNumber.length; i++) {
            if (byNumber[i] == null) {
                return i;
            }
        }
        return -1;
    }

    void add(Rail rail) {
        byNumber[rail.number] = rail;
        rails.add(rail);
    }

    Rail rail(int number) {
        return number >= 0 && number < byNumber.length ? byNumber[number] : null;
    }

    PeerPool pool(UUID peer) {
        return pools.get(peer);
    }

    /** The pool of {@code peer}'s rails, formed now by {@code form} if it is the first. */
    PeerPool poolOf(UUID peer, Function<UUID, PeerPool> form) {
        PeerPool pool = pools.get(peer);
        if (pool == null) {
            pool = form.apply(peer);
            pools.put(peer, pool);
            poolList.add(pool);
        }
        return pool;
    }

    /** Every rail, in the order they joined; the engine's own list (no copy), for its duty cycle. */
    List<Rail> rails() {
        return rails;
    }

    /** Every pool, in the order they formed; the engine's own list (no copy), for its duty cycle. */
    List<PeerPool> pools() {
        return poolList;
    }

    /** Takes the closed rails out of the device, each out of its pool; returns how many. */
    int removeClosed() {
        int removed = 0;
        for (int i = rails.size() - 1; i >= 0; i--) {
            Rail r = rails.get(i);
            if (r.state == Rail.State.CLOSED) {
                rails.remove(i);
                byNumber[r.number] = null;
                leavePool(r);
                removed++;
            }
        }
        return removed;
    }

    /** The rail leaves its pool, if it is in one. */
    static void leavePool(Rail rail) {
        if (rail.pool != null) {
            rail.pool.detach(rail);
            rail.pool = null;
        }
    }

    /** Forgets every rail, for a device that closed them all. */
    void clear() {
        rails.clear();
    }
}
