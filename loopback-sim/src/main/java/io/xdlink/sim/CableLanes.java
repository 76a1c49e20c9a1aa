package io.xdlink.sim;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.Scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * The lane adapters at both ends of one plugged cable, and the physics that decides what the link runs.
 *
 * <p>A cable comes up as two single-lane links (lane 1 enabled, both ends targeting one lane), as USB4 does for
 * compatibility. It bonds when both ends target two lanes with lane 1 enabled, the cable has two lanes and both
 * controllers agree; the change takes {@link #RETRAIN_NANOS} of retraining, after which both ends' listeners hear
 * of it. A refusing controller accepts every write and never bonds. Gen 4 links come up bonded. Everything here
 * runs on the fabric's scheduler thread, like the XDomain state machines that drive it.
 */
final class CableLanes {
    /** Time a link takes to retrain after a width change. */
    static final long RETRAIN_NANOS = 10_000_000;

    private final CableSpec spec;
    private final Scheduler scheduler;
    private final End a = new End(true);
    private final End b = new End(false);
    private int width;
    private Scheduler.Timer retraining;
    private boolean dead;

    CableLanes(CableSpec spec, Scheduler scheduler) {
        this.spec = spec;
        this.scheduler = scheduler;
        this.width = spec.generation() == Generation.GEN4 && spec.lanes() == 2 ? 2 : 1;
    }

    End end(boolean atA) {
        return atA ? a : b;
    }

    /** What the link runs now (both directions alike: USB4 forbids asymmetric host-to-host links). */
    synchronized LinkState linkState() {
        return LinkState.of(spec.generation(), width);
    }

    synchronized int width() {
        return width;
    }

    /** The cable was pulled: no more retraining, no more listener calls. */
    synchronized void kill() {
        dead = true;
        if (retraining != null) {
            retraining.cancel();
        }
    }

    /** The width the two ends' settings lead to. */
    private int wantedWidth() {
        if (spec.generation() == Generation.GEN4) {
            return spec.lanes();
        }
        boolean bothDual = a.target == 3 && b.target == 3 && a.lane1 && b.lane1;
        return bothDual && spec.lanes() == 2 && spec.bonding().bonds() ? 2 : 1;
    }

    /** Called after any write: retrains towards the width the settings now lead to. */
    private synchronized void settingsChanged() {
        if (dead) {
            return;
        }
        int wanted = wantedWidth();
        if (retraining != null) {
            retraining.cancel();
            retraining = null;
        }
        if (wanted == width) {
            return;
        }
        retraining = scheduler.schedule(RETRAIN_NANOS, () -> retrained(wanted));
    }

    private void retrained(int newWidth) {
        List<Runnable> toCall = new ArrayList<>();
        synchronized (this) {
            if (dead || width == newWidth) {
                return;
            }
            width = newWidth;
            retraining = null;
            toCall.addAll(a.listeners);
            toCall.addAll(b.listeners);
        }
        toCall.forEach(Runnable::run);
    }

    /** One end's lane adapter registers. */
    final class End {
        private final boolean atA;
        private int target = 1;
        private boolean lane1 = true;
        private final List<Runnable> listeners = new ArrayList<>();

        private End(boolean atA) {
            this.atA = atA;
        }

        /** Supported widths: single, plus dual on a two-lane cable (a refusing controller says dual too). */
        int supportedWidth() {
            return spec.lanes() == 2 ? 0x3 : 0x1;
        }

        int targetWidth() {
            synchronized (CableLanes.this) {
                return target;
            }
        }

        void setTargetWidth(int tlw) {
            if (tlw != 1 && tlw != 3) {
                throw new IllegalArgumentException("target width must be 1 (single) or 3 (dual): " + tlw);
            }
            synchronized (CableLanes.this) {
                target = tlw;
            }
            settingsChanged();
        }

        void enableSecondLane() {
            synchronized (CableLanes.this) {
                lane1 = true;
            }
            settingsChanged();
        }

        void disableSecondLane() {
            synchronized (CableLanes.this) {
                lane1 = false;
            }
            settingsChanged();
        }

        Generation speed() {
            return spec.generation();
        }

        int currentWidth() {
            return width();
        }

        void addListener(Runnable l) {
            synchronized (CableLanes.this) {
                listeners.add(l);
            }
        }

        void removeListener(Runnable l) {
            synchronized (CableLanes.this) {
                listeners.remove(l);
            }
        }

        boolean atA() {
            return atA;
        }
    }
}
