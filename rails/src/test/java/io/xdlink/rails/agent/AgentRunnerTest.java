package io.xdlink.rails.agent;

import io.xdlink.rails.Agent;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentRunnerTest {

    @Test
    void aRunnerCyclesSurvivesErrorsAndClosesTheAgentOnItsOwnThread() throws Exception {
        AtomicInteger cycles = new AtomicInteger();
        CountDownLatch failed = new CountDownLatch(1);
        Thread[] closedOn = new Thread[1];
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                if (cycles.incrementAndGet() == 5) {
                    throw new IllegalStateException("boom");
                }
                return 0;
            }

            @Override
            public String roleName() {
                return "xdlink-test-agent";
            }

            @Override
            public void onClose() {
                closedOn[0] = Thread.currentThread();
            }
        };
        AgentRunner r = AgentRunner.start(agent, new BackoffIdleStrategy(), e -> failed.countDown());
        assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
        while (cycles.get() < 10) {
            Thread.sleep(1);
        }
        r.close();
        assertThat(r.isRunning()).isFalse();
        assertThat(r.errors()).isEqualTo(1);
        assertThat(closedOn[0]).isSameAs(r.thread());
    }

    @Test
    void backoffRefusesNonsense() {
        assertThatThrownBy(() -> new BackoffIdleStrategy(1, 1, 10, 5)).hasMessageContaining("park");
        BackoffIdleStrategy b = new BackoffIdleStrategy(2, 2, 1, 4);
        for (int i = 0; i < 10; i++) {
            b.idle(0);
        }
        b.idle(1);
        new BusySpinIdleStrategy().idle(0);
    }
}
