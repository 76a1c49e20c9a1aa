package io.xdlink.rails.verbs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MpmcRingTest {

    @Test
    void aFullRingRefusesAndAnEmptyOneAnswersNull() {
        MpmcRing<Integer> r = new MpmcRing<>(4);
        assertThat(r.capacity()).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(r.offer(i)).isTrue();
        }
        assertThat(r.offer(9)).isFalse();
        for (int i = 0; i < 4; i++) {
            assertThat(r.poll()).isEqualTo(i);
        }
        assertThat(r.poll()).isNull();
    }

    @Test
    void manyProducersAndConsumersLoseNothingAndDuplicateNothing() throws Exception {
        MpmcRing<Integer> r = new MpmcRing<>(64);
        int total = 50_000;
        AtomicInteger produced = new AtomicInteger();
        BitSet seen = new BitSet(total);
        AtomicInteger consumed = new AtomicInteger();
        AtomicInteger duplicates = new AtomicInteger();
        List<Thread> ts = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            ts.add(Thread.ofPlatform().start(() -> {
                int i;
                while ((i = produced.getAndIncrement()) < total) {
                    while (!r.offer(i)) {
                        Thread.yield();
                    }
                }
            }));
        }
        for (int c = 0; c < 2; c++) {
            ts.add(Thread.ofPlatform().start(() -> {
                while (consumed.get() < total) {
                    Integer x = r.poll();
                    if (x != null) {
                        synchronized (seen) {
                            if (seen.get(x)) {
                                duplicates.incrementAndGet();
                            }
                            seen.set(x);
                        }
                        consumed.incrementAndGet();
                    } else {
                        Thread.yield();
                    }
                }
            }));
        }
        for (Thread t : ts) {
            t.join();
        }
        assertThat(duplicates.get()).isZero();
        assertThat(seen.cardinality()).isEqualTo(total);
    }
}
