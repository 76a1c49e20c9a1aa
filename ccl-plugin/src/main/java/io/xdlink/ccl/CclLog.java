package io.xdlink.ccl;

/**
 * Where the plugin's log lines go: the host's logger ({@code ncclDebugLogger_t}, called from C) when a collective
 * library loaded us, else {@link System.Logger}. Lines read like the host's own: {@code NET/xdlink : ...}.
 */
@FunctionalInterface
public interface CclLog {

    /** NCCL's levels, with their numbers. */
    enum Level {
        WARN(2), INFO(3), TRACE(5);

        private final int code;

        Level(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    /** NCCL's subsystem bits: INIT and NET. */
    long SUBSYSTEM_INIT = 0x1;
    long SUBSYSTEM_NET = 0x10;

    void log(Level level, long subsystems, String message);

    default void warn(String message) {
        log(Level.WARN, SUBSYSTEM_INIT | SUBSYSTEM_NET, message);
    }

    default void info(String message) {
        log(Level.INFO, SUBSYSTEM_INIT | SUBSYSTEM_NET, message);
    }

    /** Logs to {@link System.Logger} {@code io.xdlink.ccl}. */
    static CclLog system() {
        System.Logger logger = System.getLogger("io.xdlink.ccl");
        return (level, subsystems, message) -> logger.log(switch (level) {
            case WARN -> System.Logger.Level.WARNING;
            case INFO -> System.Logger.Level.INFO;
            case TRACE -> System.Logger.Level.TRACE;
        }, message);
    }
}
