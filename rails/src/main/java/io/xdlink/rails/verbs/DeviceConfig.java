package io.xdlink.rails.verbs;

import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.agent.BusySpinIdleStrategy;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.SystemScheduler;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.UUID;
import io.xdlink.xdomain.VirtualScheduler;
import java.util.SplittableRandom;

/**
 * How to open a device.
 *
 * @param id       the device's identity, the one peers see in HELLO and connect handles name
 * @param settings the rails parameters
 * @param clock    the clock every timeout reads ({@link VirtualScheduler} for virtual time)
 * @param invoker  true: no thread; the owner steps {@link Device#agent()}'s {@code doWork()} (invoker mode).
 *                 false: a progress thread runs the engine with {@code idle}
 * @param idle     the progress thread's idle strategy (unused in invoker mode)
 * @param seed     seeds remote keys, epochs, connection ids and queue pair numbers; a fixed seed makes a
 *                 virtual-time run repeat exactly
 */
public record DeviceConfig(UUID id, RailsSettings settings, Scheduler clock, boolean invoker, IdleStrategy idle,
                           long seed) {

    private static final class Clock {
        static final Scheduler SYSTEM = new SystemScheduler("xdlink-rails-clock");
    }

    public DeviceConfig {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(idle, "idle");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a config; unset fields get a random identity, default parameters, the system clock, a thread. */
    public static final class Builder {
        private UUID id;
        private RailsSettings settings;
        private Scheduler clock;
        private boolean invoker;
        private IdleStrategy idle;
        private Long seed;

        public Builder id(UUID id) {
            this.id = id;
            return this;
        }

        public Builder settings(RailsSettings settings) {
            this.settings = settings;
            return this;
        }

        public Builder clock(Scheduler clock) {
            this.clock = clock;
            return this;
        }

        /** No progress thread: the owner calls {@code device.agent().doWork()}. */
        public Builder invoker() {
            this.invoker = true;
            return this;
        }

        /** A progress thread with this idle strategy. */
        public Builder thread(IdleStrategy idle) {
            this.invoker = false;
            this.idle = idle;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public DeviceConfig build() {
            RailsSettings s = settings != null ? settings : RailsSettings.defaults();
            long sd = seed != null ? seed : new SecureRandom().nextLong();
            UUID i = id != null ? id : new UUID(new SplittableRandom(sd).nextLong(),
                    new SplittableRandom(~sd).nextLong());
            IdleStrategy is = idle != null ? idle
                    : "spin".equals(s.idleStrategy()) ? new BusySpinIdleStrategy() : new BackoffIdleStrategy();
            return new DeviceConfig(i, s, clock != null ? clock : Clock.SYSTEM, invoker, is, sd);
        }
    }
}
