package io.xdlink.sim;

import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.SystemScheduler;
import io.xdlink.xdomain.VirtualScheduler;

import java.util.Objects;
import java.util.Locale;

/**
 * The time a simulated fabric runs in, and whether its cables pace frames at all.
 *
 * <ul>
 *   <li>{@link Mode#VIRTUAL}: a {@link VirtualScheduler}; nothing moves until a test advances it, so throughput is
 *   measured in virtual nanoseconds, deterministically and without sleeping.</li>
 *   <li>{@link Mode#REAL}: the wall clock; a cable delivers its configured rate in wall-clock terms (benchmarks).</li>
 *   <li>{@link Mode#UNPACED}: the wall clock for XDomain's timers, but frames cross a cable as fast as memory
 *   allows, with no rate and no latency (functional runs).</li>
 * </ul>
 *
 * <p>In virtual time a frame in flight would be invisible to {@link VirtualScheduler#advanceToNext()}, which only
 * knows scheduled tasks; so the wire schedules a no-op task at each moment something becomes possible (a frame
 * arrives, a TX ring drains), and a test loop that steps its progress engines and then jumps to the next task
 * lands exactly there.
 */
public final class SimClock {

    /** How time passes and whether cables pace. */
    public enum Mode { VIRTUAL, REAL, UNPACED }

    private final Mode mode;
    private final Scheduler scheduler;

    private SimClock(Mode mode, Scheduler scheduler) {
        this.mode = mode;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** Virtual time on {@code scheduler}; the caller advances it. */
    public static SimClock virtual(VirtualScheduler scheduler) {
        return new SimClock(Mode.VIRTUAL, scheduler);
    }

    /** Wall-clock pacing; timers run on {@code scheduler} (usually a {@link SystemScheduler}). */
    public static SimClock real(Scheduler scheduler) {
        return new SimClock(Mode.REAL, scheduler);
    }

    /** No pacing; timers run on {@code scheduler}. */
    public static SimClock unpaced(Scheduler scheduler) {
        return new SimClock(Mode.UNPACED, scheduler);
    }

    public Mode mode() {
        return mode;
    }

    /** The scheduler every XDomain timeout, control packet and wake-up goes through. */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Now, in the scheduler's nanoseconds. */
    public long now() {
        return scheduler.nanoTime();
    }

    /** True when cables hold frames to their rate and latency. */
    public boolean paced() {
        return mode != Mode.UNPACED;
    }

    /** True when a test advances time by hand. */
    public boolean isVirtual() {
        return mode == Mode.VIRTUAL;
    }

    @Override
    public String toString() {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}
