package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.Scheduler;
import java.util.function.Consumer;

/**
 * Waits for a link to reach a lane count, as Linux's {@code tb_port_wait_for_link_width} does, but without
 * blocking: the lane adapter's change listener or the timeout ends the wait, whichever comes first, and
 * {@link #abort()} ends it at once. One wait at a time; confined to the scheduler's thread.
 */
final class LaneWait {
    private final Scheduler scheduler;
    private final LaneAdapter lanes;
    private Runnable abort;

    LaneWait(Scheduler scheduler, LaneAdapter lanes) {
        this.scheduler = scheduler;
        this.lanes = lanes;
    }

    /** Calls {@code done} once: true when the link runs {@code width} lanes within {@code timeoutNanos}. */
    void await(int width, long timeoutNanos, Consumer<Boolean> done) {
        if (lanes.currentWidth() == width) {
            done.accept(true);
            return;
        }
        Runnable[] check = new Runnable[1];
        Scheduler.Timer[] timeout = new Scheduler.Timer[1];
        Consumer<Boolean> once = reached -> {
            if (abort != null) {
                abort = null;
                timeout[0].cancel();
                lanes.removeListener(check[0]);
                done.accept(reached);
            }
        };
        check[0] = () -> {
            if (lanes.currentWidth() == width) {
                scheduler.execute(() -> once.accept(true));
            }
        };
        timeout[0] = scheduler.schedule(timeoutNanos, () -> once.accept(lanes.currentWidth() == width));
        abort = () -> once.accept(false);
        lanes.addListener(check[0]);
    }

    /** Ends a wait in progress as not reached. */
    void abort() {
        if (abort != null) {
            abort.run();
        }
    }
}
