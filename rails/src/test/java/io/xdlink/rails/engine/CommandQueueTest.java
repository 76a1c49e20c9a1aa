package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class CommandQueueTest {

    private static final class Numbered extends Command {
        final int producer;
        final int n;

        Numbered(int producer, int n) {
            this.producer = producer;
            this.n = n;
        }

        @Override
        protected void run(DeviceEngine engine) {
        }
    }

    @Test
    void everyCommandOfEveryProducerArrivesOnceAndInItsProducersOrder() throws Exception {
        int producers = 4;
        int each = 50_000;
        CommandQueue q = new CommandQueue();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    q.push(new Numbered(id, i));
                }
            }));
        }
        start.countDown();
        int[] next = new int[producers];
        int got = 0;
        while (got < producers * each) {
            Command c = q.poll();
            if (c == null) {
                Thread.onSpinWait();
                continue;
            }
            Numbered n = (Numbered) c;
            assertThat(n.n).isEqualTo(next[n.producer]);
            next[n.producer]++;
            got++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(q.poll()).isNull();
    }
}
