package io.xdlink.it;

import io.xdlink.rails.BuggyRail;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@link NoInternalErrors} fails a test whose device caught an internal error and lets a clean one pass; devices
 * opened outside a checking test are refused. The extension is run for real on {@link Fixture} through the
 * platform's launcher: one of its tests makes a device's engine meet a frame in freed memory (a transport bug the
 * engine lives through) and passes by itself, so only the extension can fail it.
 *
 * <p>This class does not check its own devices: it opens them only to show what the check says about them.
 */
class NoInternalErrorsTest {
    private static volatile boolean launching;

    /** Whether {@link Fixture} runs: only when this test launches it, never on its own in the build. */
    static boolean launching() {
        return launching;
    }

    private static InMemoryRailPair rail() {
        return InMemoryRailPair.create(new RailInfo("mem0", "cable0", LinkState.of(Generation.GEN3, 2), false), 256);
    }

    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + ResourceTest.PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still waiting after " + ResourceTest.PATIENCE.toSeconds() + " s for "
                        + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** Two full-stack tests, checked by the extension: run only through {@link #launching}. */
    @ExtendWith(NoInternalErrors.class)
    @EnabledIf("io.xdlink.it.NoInternalErrorsTest#launching")
    static class Fixture {

        private static DevicePair pair(BuggyRail atA, RailTransport atB) {
            return DevicePair.open(List.of(atA), List.of(atB), id -> DeviceConfig.builder().id(id)
                            .settings(RailsSettings.defaults()).thread(new BackoffIdleStrategy())
                            .seed(id.getLeastSignificantBits()).build(),
                    (a, b) -> { }, NoInternalErrorsTest::await);
        }

        @Test
        void clean() {
            InMemoryRailPair rail = rail();
            try (DevicePair p = pair(new BuggyRail(rail.a()), rail.b())) {
                assertThat(p.a.stats().internalErrors()).isZero();
            }
        }

        @Test
        void aFrameInFreedMemory() {
            InMemoryRailPair rail = rail();
            BuggyRail atA = new BuggyRail(rail.a());
            try (DevicePair p = pair(atA, rail.b())) {
                atA.freedFrame = true;
                await("the engine to meet the freed frame", () -> p.a.stats().internalErrors() > 0);
            }
        }
    }

    @Test
    void theExtensionFailsOnlyTheTestWhoseDeviceCaughtAnInternalError() {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        Launcher launcher = LauncherFactory.create();
        launching = true;
        try {
            launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Fixture.class)).build(),
                    new TestExecutionListener() {
                        @Override
                        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                            if (id.isTest()) {
                                results.put(id.getDisplayName(), result);
                            }
                        }
                    });
        } finally {
            launching = false;
        }
        assertThat(results).containsOnlyKeys("clean()", "aFrameInFreedMemory()");
        assertThat(results.get("clean()").getStatus()).as("%s", results.get("clean()"))
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        TestExecutionResult broken = results.get("aFrameInFreedMemory()");
        assertThat(broken.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        Throwable why = broken.getThrowable().orElseThrow();
        assertThat(why).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 of the 2 rails device(s) the test opened caught internal errors")
                .hasMessageContaining("device " + DevicePair.ID_A + ": 1, the last java.lang.IllegalStateException")
                .hasMessageNotContaining(DevicePair.ID_B.toString())
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void theCheckNamesEachDeviceWithItsCountAndLastError() {
        InMemoryRailPair rail = rail();
        BuggyRail bug = new BuggyRail(rail.a());
        try (Device broken = Device.open(DeviceConfig.builder().id(new UUID(9, 1)).invoker().seed(1).build(),
                List.of(bug));
             Device clean = Device.open(DeviceConfig.builder().id(new UUID(9, 2)).invoker().seed(2).build(),
                     List.of(rail.b()))) {
            for (int i = 0; i < 3; i++) {
                broken.agent().doWork();
                clean.agent().doWork();
            }
            assertThat(NoInternalErrors.check(List.of(broken, clean))).isEmpty();
            bug.freedFrame = true;
            broken.agent().doWork();
            bug.freedFrame = true;
            broken.agent().doWork();
            assertThat(broken.stats().internalErrors()).isEqualTo(2);
            Optional<AssertionError> failure = NoInternalErrors.check(List.of(clean, broken));
            assertThat(failure).hasValueSatisfying(e -> assertThat(e)
                    .hasMessageStartingWith("1 of the 2 rails device(s) the test opened caught internal errors;")
                    .hasMessageContaining("device " + broken.id() + ": 2, the last " + broken.lastError())
                    .hasMessageNotContaining(clean.id().toString())
                    .cause().isSameAs(broken.lastError()));
            assertThat(NoInternalErrors.check(List.of(clean))).isEmpty();
            assertThat(NoInternalErrors.check(List.of())).isEmpty();
        }
    }

    @Test
    void aDeviceWatchedOutsideACheckingTestIsRefusedWithWhatToAdd() {
        try (Device d = Device.open(DeviceConfig.builder().id(new UUID(9, 3)).invoker().seed(3).build(), List.of())) {
            assertThatThrownBy(() -> OpenedDevices.watch(d)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(d.id().toString())
                    .hasMessageContaining("@ExtendWith(NoInternalErrors.class)");
        }
        assertThatThrownBy(OpenedDevices::end).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nestedTestsWatchTheirOwnDevices() {
        try (Device outer = Device.open(DeviceConfig.builder().id(new UUID(9, 4)).invoker().seed(4).build(),
                List.of());
             Device inner = Device.open(DeviceConfig.builder().id(new UUID(9, 5)).invoker().seed(5).build(),
                     List.of())) {
            OpenedDevices.begin();
            try {
                OpenedDevices.watch(outer);
                OpenedDevices.begin();
                OpenedDevices.watch(inner);
                OpenedDevices.watch(inner);
                assertThat(OpenedDevices.end()).containsExactly(inner);
            } finally {
                assertThat(OpenedDevices.end()).containsExactly(outer);
            }
        }
    }
}
