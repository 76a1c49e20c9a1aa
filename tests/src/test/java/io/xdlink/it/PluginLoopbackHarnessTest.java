package io.xdlink.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native harness as NCCL would drive the plugin: two ranks as two threads of one process over {@code loopback=1},
 * every ABI version from v12 to v6, then dlclose and a reopen. The speed each version reports must be the rate the
 * simulated cable negotiated, for several cables.
 */
@Tag("multiprocess")
@Tag("not-under-load") // the stress pass leaves it out: StressTest says why
class PluginLoopbackHarnessTest {

    @ParameterizedTest(name = "{0} -> {1} Mb/s")
    @CsvSource({
        "loopback=1, 40000",
        "loopback=1 loopback_lanes=1, 20000",
        "loopback=1 loopback_gen=gen2, 20000",
        "loopback=1 loopback_gen=gen4, 80000",
    })
    void everyVersionRunsBetweenTwoThreadsAndReportsTheNegotiatedSpeed(String params, int speed) throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME, "XDLINK_PARAMS", params), 300, "threads", "--speed",
                Integer.toString(speed));
        assertThat(run.output()).as(run.output()).contains("NET/xdlink : Using [0]xdlink-loopback0 speed " + speed
                + " Mbps");
        for (int v = 6; v <= 12; v++) {
            assertThat(run.output()).as(run.output())
                    .contains("PASS v" + v + " speed " + speed + " Mbps is the link's negotiated " + speed)
                    .contains("PASS v" + v + " every receive done with the sender's bytes and sizes (0 bad)")
                    .contains("PASS v" + v + " every send done with its size")
                    .contains("PASS v" + v + " finalize");
        }
        assertThat(run.output()).contains("PASS dlclose").contains("PASS reopen after dlclose")
                .contains("NCCL INFO Unloading plugin");
        assertThat(run.count("PASS v12 every receive done")).as("v12 ran again after the reopen").isEqualTo(2);
        assertThat(run.count("FAIL")).as(run.output()).isZero();
        assertThat(run.exit()).isZero();
        assertThat(run.output()).endsWith(" passed, 0 failed\n");
    }

    @org.junit.jupiter.api.Test
    void thePingPongModeRoundTripsThroughTheV12Table() throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of("NCCL_NET_PLUGIN", NativeHarness.SO.toString(),
                "JAVA_HOME", NativeHarness.JAVA_HOME, "XDLINK_PARAMS", "loopback=1"), 300, "pingpong", "--iterations",
                "200");
        assertThat(run.output()).as(run.output()).contains("pingpong: one test() call through ncclNetPlugin_v12:")
                .contains("PASS pingpong: the idle receive stays pending")
                .contains("pingpong: 8-byte half round trip through ncclNetPlugin_v12:")
                .endsWith("passed, 0 failed\n");
        assertThat(run.exit()).isZero();
    }
}
