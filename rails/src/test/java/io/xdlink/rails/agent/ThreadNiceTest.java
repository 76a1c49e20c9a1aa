package io.xdlink.rails.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The nice value a thread sets is the kernel's for that thread alone. */
class ThreadNiceTest {
    /**
     * The calling thread's nice value as the kernel shows it: field 19 of /proc/PID/task/TID/stat, counted after the
     * command name's closing parenthesis (the name may hold spaces).
     */
    private static String readOwn() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // PID/task/TID
            String stat = Files.readString(Path.of("/proc").resolve(self).resolve("stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return after[16]; // fields 3.. follow the name: 19 is the 17th of them
        } catch (Exception e) {
            return "unreadable: " + e;
        }
    }

    @Test
    void aThreadsNiceValueIsWhatItSetAndOnlyItsOwn() throws Exception {
        assumeTrue(!readOwn().startsWith("unreadable"), "no /proc/thread-self: not Linux");
        assumeTrue(ThreadNice.current().isPresent(), "no getpriority here");
        String before = readOwn();
        AtomicReference<String> own = new AtomicReference<>();
        AtomicReference<Integer> reported = new AtomicReference<>();
        AtomicReference<Boolean> set = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            set.set(ThreadNice.set(7));
            own.set(readOwn());
            reported.set(ThreadNice.current().orElse(null));
        });
        t.join();
        assertThat(set.get()).isTrue();
        assertThat(own.get()).isEqualTo("7");
        assertThat(reported.get()).isEqualTo(7);
        assertThat(readOwn()).as("the thread that started it keeps its own").isEqualTo(before);
    }

    @Test
    void aValueOutsideZeroToNineteenIsRefusedAndChangesNothing() throws Exception {
        assumeTrue(!readOwn().startsWith("unreadable"), "no /proc/thread-self: not Linux");
        AtomicReference<String> before = new AtomicReference<>();
        AtomicReference<String> after = new AtomicReference<>();
        AtomicReference<Boolean> negative = new AtomicReference<>();
        AtomicReference<Boolean> tooHigh = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            before.set(readOwn());
            negative.set(ThreadNice.set(-5));
            tooHigh.set(ThreadNice.set(20));
            after.set(readOwn());
        });
        t.join();
        assertThat(negative.get()).isFalse();
        assertThat(tooHigh.get()).isFalse();
        assertThat(after.get()).isEqualTo(before.get());
    }
}
