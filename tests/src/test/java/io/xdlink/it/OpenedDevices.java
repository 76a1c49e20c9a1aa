package io.xdlink.it;

import io.xdlink.rails.verbs.Device;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The rails devices the running test opened, for {@link NoInternalErrors} to check once it is over. The full-stack
 * helpers hand every device they open to {@link #watch}: {@link DevicePair}, {@link ResourceTest#closeLater}, the
 * cluster tests (through {@code SimCluster#devices}). A device handed over while no checking test runs is refused
 * with an error that says what to add, so a new full-stack test class cannot leave the check out by accident.
 *
 * <p>One set per running test, on a stack: a test that runs other tests through the platform's launcher (as
 * {@link NoInternalErrorsTest} does) nests theirs inside its own. Any thread may watch a device.
 */
final class OpenedDevices {
    private static final Deque<Set<Device>> RUNNING = new ArrayDeque<>();

    private OpenedDevices() {
    }

    /** Watches {@code device} for the running test and returns it. */
    static <T extends Device> T watch(T device) {
        synchronized (RUNNING) {
            Set<Device> devices = RUNNING.peek();
            if (devices == null) {
                throw new IllegalStateException("device " + device.id() + " was opened outside a test that checks"
                        + " its devices for internal errors: give the test class @ExtendWith(NoInternalErrors.class)"
                        + " (ResourceTest has it)");
            }
            devices.add(device);
        }
        return device;
    }

    /** A test starts: the devices watched from now on are its own. */
    static void begin() {
        synchronized (RUNNING) {
            RUNNING.push(Collections.newSetFromMap(new IdentityHashMap<>()));
        }
    }

    /** The test that {@link #begin began} last is over: the devices it opened, in no particular order. */
    static List<Device> end() {
        synchronized (RUNNING) {
            Set<Device> devices = RUNNING.poll();
            if (devices == null) {
                throw new IllegalStateException("a test ended that never began watching devices");
            }
            return new ArrayList<>(devices);
        }
    }
}
