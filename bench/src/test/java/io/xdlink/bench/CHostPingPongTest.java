package io.xdlink.bench;

import io.xdlink.ccl.abi.NativeBridge;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's C host loop against the real plugin library over {@code loopback=1} (the build sets
 * {@code XDLINK_PARAMS} and the library paths for this test): round trips complete and are timed, both sides' calls
 * are counted, the shim answers most of them without Java, and closing stops the echo thread (the test's end
 * would hang on it otherwise).
 */
class CHostPingPongTest {

    @Test
    void theCLoopsPingPongThroughTheV12TableAndCountTheirCalls() throws Throwable {
        try (Arena arena = Arena.ofShared(); CHostPingPong p = CHostPingPong.open(arena)) {
            long upcalls0 = NativeBridge.testUpcalls();
            long[] times = new long[300];
            p.pingPong(times, 0, 100);
            p.pingPong(times, 100, 200);
            assertThat(Arrays.stream(times).min().orElseThrow()).as("every round trip timed").isPositive();
            long tests = p.tests();
            long sends = p.sends();
            // Each round trip is at least a send and a receive tested done on each side, and a send posted by each.
            assertThat(tests).isGreaterThanOrEqualTo(4L * times.length);
            assertThat(sends).isGreaterThanOrEqualTo(2L * times.length);
            // The shim answers "not done" by itself: Java sees about one test per request, not one per call.
            assertThat(NativeBridge.testUpcalls() - upcalls0).isLessThanOrEqualTo(4L * times.length + 8);
            assertThat(p.call(1000)).as("ns per test() of a pending receive from C").isPositive();
            assertThat(p.tests()).as("the echo keeps testing while it waits").isGreaterThanOrEqualTo(tests);
        }
    }
}
