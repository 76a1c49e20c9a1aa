package io.xdlink.cluster;

import io.xdlink.rails.agent.VirtualTimeDriver;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.sim.FastForwardScheduler;
import io.xdlink.sim.SimClock;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.VirtualScheduler;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.List;

/**
 * How time passes in a simulated cluster. In virtual time one {@link VirtualTimeDriver} steps every host's rails
 * device in invoker mode and moves the clock from event to event, so any number of hosts runs on one thread and
 * every run is the same. In real time the links negotiate in virtual time first (as {@code loopback=N} does), then
 * the clock goes live: each device runs its own progress thread, frames are paced by the wall clock, and the
 * cluster polls; that needs a processor or so per host, so it is for a few hosts.
 */
sealed interface Clockwork extends AutoCloseable {

    static Clockwork of(boolean realTime) {
        return realTime ? new Real() : new Virtual();
    }

    SimClock simClock();

    Scheduler scheduler();

    long now();

    /** Configures a host's device for this clock, and starts stepping it. */
    Device open(DeviceConfig.Builder config);

    /** Lets the links negotiate (in virtual time, both kinds) until {@code settled}; false when they did not. */
    boolean settle(BooleanSupplier settled, long maxNanos);

    /** Moves everything on until {@code done} holds or {@code maxNanos} passed; whether it holds. */
    boolean runUntil(BooleanSupplier done, long maxNanos);

    /** Called after the hosts moved: virtual time lets the devices take up what the hosts posted. */
    void afterMove();

    /** Called when no host moved: waits for something to happen; false when nothing ever will. */
    boolean idle();

    @Override
    void close();

    final class Virtual implements Clockwork {
        private final VirtualScheduler scheduler = new VirtualScheduler();
        private final VirtualTimeDriver driver = new VirtualTimeDriver(scheduler);
        private final SimClock clock = SimClock.virtual(scheduler);

        @Override
        public SimClock simClock() {
            return clock;
        }

        @Override
        public Scheduler scheduler() {
            return scheduler;
        }

        @Override
        public long now() {
            return scheduler.nanoTime();
        }

        @Override
        public Device open(DeviceConfig.Builder config) {
            Device d = Device.open(config.clock(scheduler).invoker().build(), List.of());
            driver.add(d.agent());
            return d;
        }

        @Override
        public boolean settle(BooleanSupplier settled, long maxNanos) {
            return driver.runUntil(settled, maxNanos);
        }

        @Override
        public boolean runUntil(BooleanSupplier done, long maxNanos) {
            return driver.runUntil(done, maxNanos);
        }

        @Override
        public void afterMove() {
            driver.stepUntilIdle();
        }

        @Override
        public boolean idle() {
            return driver.advance();
        }

        @Override
        public void close() {
        }
    }

    final class Real implements Clockwork {
        private static final long PARK_NANOS = 20_000;
        private final FastForwardScheduler scheduler = new FastForwardScheduler("xdlink-cluster");
        private final SimClock clock = SimClock.real(scheduler);

        @Override
        public SimClock simClock() {
            return clock;
        }

        @Override
        public Scheduler scheduler() {
            return scheduler;
        }

        @Override
        public long now() {
            return scheduler.nanoTime();
        }

        @Override
        public Device open(DeviceConfig.Builder config) {
            return Device.open(config.clock(scheduler).build(), List.of());
        }

        @Override
        public boolean settle(BooleanSupplier settled, long maxNanos) {
            if (scheduler.isLive()) {
                return runUntil(settled, maxNanos);
            }
            boolean ok = scheduler.settle(settled, maxNanos);
            scheduler.goLive();
            return ok;
        }

        @Override
        public boolean runUntil(BooleanSupplier done, long maxNanos) {
            long end = now() + maxNanos;
            while (!done.getAsBoolean()) {
                if (now() > end) {
                    return false;
                }
                LockSupport.parkNanos(PARK_NANOS);
            }
            return true;
        }

        @Override
        public void afterMove() {
        }

        @Override
        public boolean idle() {
            LockSupport.parkNanos(PARK_NANOS);
            return true;
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }
}
