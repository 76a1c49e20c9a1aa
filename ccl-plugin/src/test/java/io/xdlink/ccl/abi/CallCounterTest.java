package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CallCounterTest {

    @Test
    void countsEveryCallOfEveryThreadExactlyOnceTheyHaveReturned() throws InterruptedException {
        CallCounter counter = new CallCounter();
        assertThat(counter.sum()).isZero();
        List<Thread> threads = new ArrayList<>();
        // More threads than cells, so some share a cell and must still not lose a count.
        for (int t = 0; t < 80; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 5_000; i++) {
                    counter.increment();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        counter.increment();
        assertThat(counter.sum()).isEqualTo(80L * 5_000 + 1);
    }
}
