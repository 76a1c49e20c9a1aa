package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VirtualTimeDriverTest {

    /** Does one unit of work per tick it is due, and asks to be woken every {@code period}. */
    private static final class Ticker implements Agent {
        final VirtualScheduler clock;
        final long period;
        long next;
        final List<Long> ticks = new ArrayList<>();

        Ticker(VirtualScheduler clock, long period) {
            this.clock = clock;
            this.period = period;
            this.next = period;
        }

        @Override
        public int doWork() {
            if (clock.nanoTime() >= next) {
                ticks.add(clock.nanoTime());
                next += period;
                return 1;
            }
            return 0;
        }

        @Override
        public long nextDeadlineNanos() {
            return next;
        }

        @Override
        public String roleName() {
            return "ticker";
        }
    }

    @Test
    void theClockJumpsFromDeadlineToDeadlineOfAgentsAndTasks() {
        VirtualScheduler clock = new VirtualScheduler();
        Ticker a = new Ticker(clock, 30);
        Ticker b = new Ticker(clock, 50);
        List<Long> tasks = new ArrayList<>();
        clock.schedule(70, () -> tasks.add(clock.nanoTime()));
        VirtualTimeDriver d = new VirtualTimeDriver(clock, a, b);
        d.runFor(150);
        assertThat(a.ticks).containsExactly(30L, 60L, 90L, 120L, 150L);
        assertThat(b.ticks).containsExactly(50L, 100L, 150L);
        assertThat(tasks).containsExactly(70L);
        assertThat(clock.nanoTime()).isEqualTo(150);
        assertThat(d.runUntil(() -> a.ticks.size() == 7, 1_000)).isTrue();
        assertThat(clock.nanoTime()).isEqualTo(210);
    }

    @Test
    void nothingPendingMeansAdvanceSaysSo() {
        VirtualScheduler clock = new VirtualScheduler();
        VirtualTimeDriver d = new VirtualTimeDriver(clock);
        assertThat(d.advance()).isFalse();
        assertThat(d.runUntil(() -> false, 1_000)).isFalse();
    }

    @Test
    void anAgentThatNeverGoesIdleIsCalledALivelock() {
        VirtualScheduler clock = new VirtualScheduler();
        Agent busy = new Agent() {
            @Override
            public int doWork() {
                return 1;
            }

            @Override
            public String roleName() {
                return "busy";
            }
        };
        assertThatThrownBy(() -> new VirtualTimeDriver(clock, busy).stepUntilIdle())
                .hasMessageContaining("livelock");
    }
}
