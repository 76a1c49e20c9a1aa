package io.xdlink.rails.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Stripe planning for one pool: which of its rails are up (in the order both ends share, {@link #up}), and
 * onto which of their queues each request's frames go. A request at least {@code stripe_min_bytes} long is cut into
 * chunks of half its queue pair's packet window, each striped over every rail up by the {@link Striper}'s weights,
 * so all rails work inside the window; a smaller one goes whole to one rail ({@link Striper#forSmallWrite}). Blocks
 * with no rail up park until one comes up, and a failing rail's unsent frames are placed again on the others. Engine
 * thread only.
 */
final class StripePlanner {
    private final long stripeMinBytes;
    private final ArrayDeque<Block> parked = new ArrayDeque<>();
    private final Striper striper = new Striper();
    private List<Rail> up = List.of();

    StripePlanner(long stripeMinBytes) {
        this.stripeMinBytes = stripeMinBytes;
    }

    /**
     * The rails that are up, lowest {@link Rail#sharedNumber} first, so both ends agree on which is first; replaced,
     * never changed, when that changes.
     */
    List<Rail> up() {
        return up;
    }

    /** Looks again at which of {@code rails} are up, and weighs them. */
    void refresh(List<Rail> rails) {
        List<Rail> u = new ArrayList<>();
        for (Rail r : rails) {
            if (r.isUp()) {
                u.add(r);
            }
        }
        u.sort(Comparator.comparingInt(Rail::sharedNumber));
        up = u;
        striper.weigh(u);
    }

    /** A rail came up: the blocks parked for want of one are placed. */
    void placeParked() {
        while (!parked.isEmpty()) {
            place(parked.poll());
        }
    }

    /** Takes every block queued on {@code rail} (failing) and gives its unsent frames to the rails up. */
    void takeBlocks(Rail rail, List<Rail> rails) {
        List<Block> moved = new ArrayList<>(rail.blocks);
        rail.blocks.clear();
        rail.queuedBytes = 0;
        refresh(rails);
        for (Block b : moved) {
            if (b.remaining() > 0) {
                place(new Block(b.request, b.first + b.sent, b.remaining()));
            }
        }
    }

    private void place(Block b) {
        Rail r = striper.forSmallWrite(up);
        if (r == null) {
            parked.add(b);
        } else {
            queue(r, b);
        }
    }

    private static void queue(Rail r, Block b) {
        r.blocks.add(b);
        r.queuedBytes += b.remainingBytes();
    }

    /** Cuts a request into blocks on the rails up. */
    void plan(SendRequest w) {
        if (up.isEmpty()) {
            parked.add(new Block(w, 0, w.frames));
            return;
        }
        if (w.length < stripeMinBytes || up.size() == 1 || w.frames == 1) {
            place(new Block(w, 0, w.frames));
            return;
        }
        // Chunks of half the packet window, each striped over every rail, so all rails work inside the window.
        int chunk = Math.max(1, w.qp.sender().peerPsnWindow / 2);
        for (int first = 0; first < w.frames; first += chunk) {
            int n = Math.min(chunk, w.frames - first);
            int[] counts = striper.split(n);
            int start = first;
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    queue(up.get(i), new Block(w, start, counts[i]));
                    start += counts[i];
                }
            }
        }
    }

    /** Blocks parked for want of a rail up, for tests and statistics. */
    int parkedBlocks() {
        return parked.size();
    }
}
