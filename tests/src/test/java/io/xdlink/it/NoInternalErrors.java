package io.xdlink.it;

import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceStats;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Fails a test when any rails device it opened caught an internal error ({@link DeviceStats#internalErrors()}): a
 * bug the progress engine lived through, which on a lossy fabric retransmission would otherwise hide behind a
 * passing test. The devices are the ones the test's helpers handed to {@link OpenedDevices#watch}; the check runs
 * after the test's own {@code @AfterEach} methods, so the devices are closed and their counts final. The failure
 * names each device, its count and its last error, and carries the first such error as its cause.
 *
 * <p>Apply it with {@code @ExtendWith(NoInternalErrors.class)} on every test class that opens devices in this JVM;
 * {@link ResourceTest} has it, so its subclasses do too.
 */
public final class NoInternalErrors implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        OpenedDevices.begin();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Optional<AssertionError> failure = check(OpenedDevices.end());
        if (failure.isPresent()) {
            throw failure.get();
        }
    }

    /** The failure to report for these devices, or empty when none caught an internal error. */
    static Optional<AssertionError> check(Collection<Device> devices) {
        List<Device> failed = new ArrayList<>();
        for (Device d : devices) {
            if (d.stats().internalErrors() > 0) {
                failed.add(d);
            }
        }
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        failed.sort(Comparator.comparing(Device::id));
        StringBuilder why = new StringBuilder();
        why.append(failed.size()).append(" of the ").append(devices.size())
                .append(" rails device(s) the test opened caught internal errors");
        for (Device d : failed) {
            why.append("; device ").append(d.id()).append(": ").append(d.stats().internalErrors())
                    .append(", the last ").append(d.lastError());
        }
        return Optional.of(new AssertionError(why.toString(), failed.getFirst().lastError()));
    }
}
