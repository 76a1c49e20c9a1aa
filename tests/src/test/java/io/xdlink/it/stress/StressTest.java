package io.xdlink.it.stress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

/**
 * The stress pass: the tests tagged {@value #TAG} (each starts other processes: the native plugin harness, the
 * two lab hosts) that wait on something of their own, run {@code xdlink.stress.repeat} times in a row, with
 * {@code xdlink.stress.busy_loops} busy loops (4 unless told) burning processors beside them the whole time. The
 * loops start before the first pass and stop after the last, or after {@code xdlink.stress.limit_minutes} (120
 * unless told) whatever happens. Runs only when {@code xdlink.stress.repeat} is set, which the {@code stress}
 * profile does (20; CI passes a smaller number). Every pass's counts and time are printed; a failure in any pass
 * fails the test with every failure listed.
 *
 * <p>The pass looks for a wait that a loaded host delays past its limit. Every {@value #TAG} test runs under load
 * except those also tagged {@value #NOT_UNDER_LOAD}: three classes, each of which waits on nothing that a test still
 * here does not wait on under the same load, and asserts under load nothing but that its runs complete,
 * <ul>
 *   <li>{@code TwoHostBenchTest}: its runs are {@code xdlink bench} between the lab hosts over two cables, whose
 *       waits (the server's start, the rendezvous, a rail on every cable within the bench's rail wait, the run's
 *       timeout) are those of {@code AddressingLabTest}'s /30 case; its warm-up ends within its own limit, never
 *       with a failure; and the rates it is about are not checked under load.</li>
 *   <li>{@code UnshapedLabTest}: a one-cable {@code xdlink bench} as in {@code LabFailureTest}, beside a raw socket
 *       whose only wait is the same run timeout; its ratios are not checked under load.</li>
 *   <li>{@code PluginLoopbackHarnessTest}: the plugin's JVM started inside the C harness, as in
 *       {@code PluginTwoProcessTest} (twice per run there, over TCP rails), then the simulated fabric, which moves
 *       in virtual time; its four cases differ only in the speed each cable reports.</li>
 * </ul>
 * and {@code LabFailureTest}'s run at three times the core count, which starts busy loops of its own: under the
 * pass's loops it would measure a load it does not name, and every lab run here is already a run under load.
 * What still runs under load: {@code LabFailureTest} (keepalive, a descheduled peer, a rail closed underneath,
 * stray connections: waits on time are its subject), {@code AddressingLabTest} (discovery with every addressing,
 * and a rail on each of two cables within the rail wait), {@code NetnsLabTest}, and the plugin's
 * {@code PluginTwoProcessTest}, {@code PluginStartupTest} and {@code PluginPendingRequestTest}. A new {@value #TAG}
 * test runs under load unless it is tagged {@value #NOT_UNDER_LOAD}, with its reason here.
 */
@EnabledIfSystemProperty(named = "xdlink.stress.repeat", matches = "[1-9][0-9]{0,3}")
class StressTest {
    /** The tag of every multi-process and lab test. */
    static final String TAG = "multiprocess";

    /** The tag of the {@value #TAG} tests the pass leaves out, each for the reason given in the class comment. */
    static final String NOT_UNDER_LOAD = "not-under-load";

    @Test
    void theMultiProcessTestsPassEveryTimeWithBusyLoopsBeside() {
        int repeat = Integer.getInteger("xdlink.stress.repeat");
        int loops = Integer.getInteger("xdlink.stress.busy_loops", 4);
        Duration limit = Duration.ofMinutes(Integer.getInteger("xdlink.stress.limit_minutes", 120));
        Launcher launcher = LauncherFactory.create();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage("io.xdlink.it"))
                .filters(TagFilter.includeTags(TAG), TagFilter.excludeTags(NOT_UNDER_LOAD))
                .build();
        List<String> failures = new ArrayList<>();
        long started = System.nanoTime();
        long tests = 0;
        int passes = 0;
        try (BusyLoops busy = BusyLoops.start(loops, limit)) {
            for (int pass = 1; pass <= repeat; pass++) {
                long t0 = System.nanoTime();
                SummaryGeneratingListener listener = new SummaryGeneratingListener();
                launcher.execute(request, listener, new SlowTests());
                TestExecutionSummary s = listener.getSummary();
                passes = pass;
                tests += s.getTestsSucceededCount();
                System.out.printf("stress pass %d/%d with %d busy loops: %d tests, %d passed, %d failed, %d skipped"
                                + " or aborted, %.1f s%n", pass, repeat, busy.count(), s.getTestsFoundCount(),
                        s.getTestsSucceededCount(), s.getTestsFailedCount(),
                        s.getTestsSkippedCount() + s.getTestsAbortedCount(), (System.nanoTime() - t0) / 1e9);
                assertThat(s.getTestsFoundCount()).as("tests tagged " + TAG).isPositive();
                for (TestExecutionSummary.Failure f : s.getFailures()) {
                    failures.add("pass " + pass + ": " + f.getTestIdentifier().getLegacyReportingName() + ": "
                            + f.getException());
                    System.out.println("stress pass " + pass + " FAILED " + failures.getLast());
                }
                if (System.nanoTime() - started > limit.toNanos()) {
                    failures.add("stopped after pass " + pass + " of " + repeat + ": the " + limit.toMinutes()
                            + "-minute limit ran out");
                    break;
                }
            }
        }
        System.out.printf("stress: %d of %d passes run, %d test runs passed, %d failures, %.1f min%n", passes,
                repeat, tests,
                failures.size(), (System.nanoTime() - started) / 60e9);
        assertThat(failures).as("failures over " + repeat + " passes").isEmpty();
    }

    /** Prints each test class's time, so a pass that grows says where. */
    private static final class SlowTests implements TestExecutionListener {
        private final java.util.Map<String, Long> started = new java.util.HashMap<>();

        @Override
        public void executionStarted(TestIdentifier id) {
            if (id.getSource().filter(ClassSource.class::isInstance).isPresent()) {
                started.put(id.getUniqueId(), System.nanoTime());
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            Long t0 = started.remove(id.getUniqueId());
            if (t0 != null) {
                System.out.printf("  %-28s %6.1f s %s%n", id.getDisplayName(), (System.nanoTime() - t0) / 1e9,
                        result.getStatus());
            }
        }
    }
}
