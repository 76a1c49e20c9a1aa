package io.xdlink.sim;

import io.xdlink.xdomain.Scheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FastForwardSchedulerTest {
    private static final long S = 1_000_000_000L;

    @Test
    void settlingRunsTimeoutsInDeadlineOrderWithoutWaitingForThem() {
        try (FastForwardScheduler s = new FastForwardScheduler("xdlink-test-ff")) {
            long start = s.nanoTime();
            List<String> ran = new ArrayList<>();
            s.schedule(10 * S, () -> ran.add("bonding timeout"));
            s.schedule(100_000_000, () -> {
                ran.add("uuid request");
                s.schedule(S, () -> ran.add("retry"));
            });
            Scheduler.Timer never = s.schedule(5 * S, () -> ran.add("cancelled"));
            never.cancel();
            assertThat(s.settle(() -> ran.size() == 3, 60 * S)).isTrue();
            assertThat(ran).containsExactly("uuid request", "retry", "bonding timeout");
            assertThat(s.nanoTime() - start).isEqualTo(10 * S);
        }
    }

    @Test
    void settlingStopsAtTheLimitOrWhenNothingIsLeft() {
        try (FastForwardScheduler s = new FastForwardScheduler("xdlink-test-ff")) {
            boolean[] ran = {false};
            s.schedule(20 * S, () -> ran[0] = true);
            assertThat(s.settle(() -> ran[0], 10 * S)).isFalse();
            assertThat(ran[0]).isFalse();
            assertThat(s.settle(() -> false, 30 * S)).isFalse();
            assertThat(ran[0]).isTrue();
        }
    }

    @Test
    void goingLiveKeepsTimeMonotonicAndRunsWhatWasPending() throws Exception {
        CountDownLatch pending = new CountDownLatch(1);
        CountDownLatch later = new CountDownLatch(1);
        String[] thread = new String[1];
        try (FastForwardScheduler s = new FastForwardScheduler("xdlink-test-ff")) {
            s.schedule(S, () -> { });
            s.settle(() -> false, 2 * S);
            long before = s.nanoTime();
            s.schedule(1_000_000, () -> {
                thread[0] = Thread.currentThread().getName();
                pending.countDown();
            });
            s.goLive();
            assertThat(s.isLive()).isTrue();
            assertThat(s.nanoTime()).isGreaterThanOrEqualTo(before);
            s.execute(later::countDown);
            assertThat(pending.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(later.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(thread[0]).isEqualTo("xdlink-test-ff");
        }
    }

    @Test
    void closingCancelsEverythingPending() throws Exception {
        FastForwardScheduler s = new FastForwardScheduler("xdlink-test-ff");
        boolean[] ran = {false};
        s.schedule(S, () -> ran[0] = true);
        s.close();
        assertThat(s.settle(() -> ran[0], 10 * S)).isFalse();
        Scheduler.Timer t = s.schedule(0, () -> ran[0] = true);
        assertThat(t.cancel()).isFalse();
        assertThat(ran[0]).isFalse();
    }
}
