package io.xdlink.rails.agent;

/** Waiting for a runner's thread to end, as every runner's close does. */
public final class ThreadJoin {
    private ThreadJoin() {
    }

    /**
     * Waits until {@code thread} has ended, however often the caller is interrupted meanwhile (a close must not leave
     * a thread running behind it); the interrupt is kept for the caller. Returns at once on {@code thread} itself,
     * which cannot wait for its own end.
     */
    public static void uninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
