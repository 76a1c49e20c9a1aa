package io.xdlink.rails.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The timer slack a thread sets is the kernel's for that thread and for the threads it starts afterwards. */
class TimerSlackTest {
    /** The calling thread's slack as the kernel shows it: /proc/TID/timerslack_ns, TID from /proc/thread-self. */
    private static String readOwn() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // PID/task/TID
            return Files.readString(Path.of("/proc", self.getFileName().toString(), "timerslack_ns")).strip();
        } catch (Exception e) {
            return "unreadable: " + e;
        }
    }

    @Test
    void aThreadsSlackIsWhatItSetAndItsChildrenInheritIt() throws Exception {
        assumeTrue(!readOwn().startsWith("unreadable"), "no timerslack_ns under /proc: not Linux");
        AtomicReference<String> own = new AtomicReference<>();
        AtomicReference<String> child = new AtomicReference<>();
        AtomicReference<String> before = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            before.set(readOwn());
            assertThat(TimerSlack.set(1_000)).isTrue();
            own.set(readOwn());
            Thread c = Thread.ofPlatform().start(() -> child.set(readOwn()));
            try {
                c.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.join();
        assertThat(own.get()).isEqualTo("1000");
        assertThat(child.get()).isEqualTo("1000");
        assertThat(readOwn()).as("another thread keeps its own").isEqualTo(before.get());
    }

    @Test
    void aSlackBelowOneNanosecondIsRefused() {
        assertThat(TimerSlack.set(0)).isFalse();
        assertThat(TimerSlack.set(-5)).isFalse();
    }
}
