package io.xdlink.cluster;

import io.xdlink.sim.SimTopology.Shape;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The schedules agree with themselves: whatever a host sends a neighbour, in order and size, is exactly what that
 * neighbour's steps expect from it; only neighbours talk; every host ends with its whole output written.
 */
class SchedulesTest {

    @Test
    void everySendMeetsAReceiveOfTheSameSizeInTheSameOrder() {
        for (Shape shape : Shape.values()) {
            for (int n : new int[] {2, 3, 5, 8}) {
                for (Collective c : Collective.values()) {
                    if (c == Collective.SENDRECV && shape == Shape.CHAIN) {
                        continue;
                    }
                    for (long size : new long[] {4L * n, 4L * n * 7, 4L * n * 1000 + 4L * n}) {
                        check(shape, n, c, size, 4096);
                    }
                }
            }
        }
    }

    private static void check(Shape shape, int n, Collective c, long size, long chunk) {
        Map<String, List<Long>> sent = new HashMap<>();
        Map<String, List<Long>> expected = new HashMap<>();
        for (int r = 0; r < n; r++) {
            for (List<Step> stream : Schedules.of(c, shape, n, r, n / 2, size, 4, chunk)) {
                for (Step s : stream) {
                    assertThat(s.bytes()).isLessThanOrEqualTo(chunk);
                    if (s.sendTo() >= 0) {
                        assertThat(neighbours(shape, n, r, s.sendTo())).as("%s %s host %d sends to %d", shape, c, r,
                                s.sendTo()).isTrue();
                        sent.computeIfAbsent(r + ">" + s.sendTo(), k -> new ArrayList<>()).add(s.bytes());
                    }
                    if (s.recvFrom() >= 0) {
                        expected.computeIfAbsent(s.recvFrom() + ">" + r, k -> new ArrayList<>()).add(s.bytes());
                    }
                }
            }
        }
        assertThat(sent).as("%s of %d, %s of %d bytes", shape, n, c, size).isEqualTo(expected);
    }

    private static boolean neighbours(Shape shape, int n, int a, int b) {
        int d = Math.abs(a - b);
        return d == 1 || (shape != Shape.CHAIN && d == n - 1);
    }

    @Test
    void ringAllReduceSendsTwiceNMinusOneChunksPerLoop() {
        // One loop of 4 chunks of 1 KiB: 2(n-1) = 6 messages out of each host.
        List<List<Step>> s = Schedules.of(Collective.ALL_REDUCE, Shape.RING, 4, 0, 0, 4096, 4, 4096);
        assertThat(s).hasSize(1);
        assertThat(s.getFirst().stream().filter(st -> st.sendTo() >= 0).count()).isEqualTo(6);
        assertThat(s.getFirst().stream().filter(st -> st.recvFrom() >= 0).count()).isEqualTo(6);
    }

    @Test
    void anEmptyCollectiveHasNoSteps() {
        assertThat(Schedules.of(Collective.BROADCAST, Shape.RING, 4, 0, 0, 0, 4, 4096)).isEmpty();
    }

    @Test
    void aChainRefusesSendRecv() {
        assertThatThrownBy(() -> Schedules.of(Collective.SENDRECV, Shape.CHAIN, 4, 0, 0, 64, 4, 4096))
                .hasMessageContaining("a chain has no cable for that");
    }
}
