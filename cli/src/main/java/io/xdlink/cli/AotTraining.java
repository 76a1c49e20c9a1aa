package io.xdlink.cli;

import java.util.List;

/**
 * The build's training run for the JDK's ahead-of-time cache (JEP 483, 514): runs, in one JVM, the commands a new
 * user runs first (the quick start's loopback bandwidth and latency tests), so the cache written at its exit holds
 * those classes loaded and linked (not their methods' profiles: see {@code aot/train.sh}). {@code aot/train.sh}
 * starts it with {@code -XX:AOTCacheOutput} on the class path the launcher uses; it is not a user command.
 */
public final class AotTraining {
    /** Small counts: the cache needs the path taken, not a measurement, and the build should stay quick. */
    static final List<List<String>> WORKLOADS = List.of(
            List.of("--version"),
            List.of("bench", "write_bw", "--loopback", "-n", "2000"),
            List.of("bench", "write_lat", "--loopback", "-n", "1000"));

    private AotTraining() {
    }

    public static void main(String[] args) {
        int worst = 0;
        for (List<String> workload : WORKLOADS) {
            int status = Main.run(workload.toArray(String[]::new));
            if (status != 0) {
                System.err.println("xdlink: AOT training: 'xdlink " + String.join(" ", workload) + "' exited "
                        + status);
                worst = status;
            }
        }
        System.exit(worst);
    }
}
