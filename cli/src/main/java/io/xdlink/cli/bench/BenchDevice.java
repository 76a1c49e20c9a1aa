package io.xdlink.cli.bench;

import io.xdlink.rails.agent.OwnerRunner;
import io.xdlink.rails.tcp.TcpIdleStrategy;
import io.xdlink.rails.verbs.Device;

import java.util.function.Supplier;

/**
 * A benchmark's device and who runs its progress engine. Over real hosts the bench's own thread runs it
 * ({@link OwnerRunner}): the loop that posts a WRITE also sends its frames, and the loop that waits for a ping also
 * reads it and answers, so a round trip costs each host one wake-up, as a socket ping-pong does, and each side keeps
 * one busy thread, not a poller beside a progress thread. While the bench blocks on its rendezvous with the peer a
 * standby thread keeps the engine going. In one process ({@code --loopback}) both devices keep threads of their own:
 * the simulator wakes a parked engine itself, and one thread cannot wait on two simulated ends at once.
 */
final class BenchDevice implements AutoCloseable {
    private final Device device;
    private final OwnerRunner runner;
    /** The last exception a duty cycle run by the bench's threads threw; the engine keeps running after one. */
    private volatile Throwable engineError;

    private BenchDevice(Device device, OwnerRunner runner) {
        this.device = device;
        this.runner = runner;
    }

    /** A device whose engine runs on its own thread. */
    static BenchDevice threaded(Device device) {
        return new BenchDevice(device, null);
    }

    /** A device in invoker mode whose engine the bench's threads run, waiting on its rails' sockets when idle. */
    static BenchDevice inline(Device device) {
        if (!device.config().invoker()) {
            throw new IllegalArgumentException("an inline bench device needs a device in invoker mode");
        }
        BenchDevice[] self = new BenchDevice[1];
        OwnerRunner runner = new OwnerRunner(device.agent(), BenchDevice::idleOnRails, e -> self[0].engineError = e,
                device.config().clock()::nanoTime);
        self[0] = new BenchDevice(device, runner);
        return self[0];
    }

    /**
     * An idle thread sleeps on its rails' sockets at once, without spinning or yielding first: in the two-host lab
     * (both hosts on one machine's two processors) a ping-pong whose waiting side spun 100 duty cycles and yielded 10
     * times before sleeping took 102 us typical against 27 us for one that sleeps at once, the peer's thread being
     * the one the spinning took the processor from. A frame arriving wakes the sleeper as a blocking read would.
     */
    private static TcpIdleStrategy idleOnRails() {
        return new TcpIdleStrategy(0, 0, 1);
    }

    Device device() {
        return device;
    }

    /** What the device last ran into, for a failure's message: an internal error, else why a rail went; or null. */
    Throwable lastError() {
        Throwable t = engineError != null ? engineError : device.lastError();
        return t != null ? t : device.lastRailClosure();
    }

    /** True when the bench's threads run the engine. */
    boolean inline() {
        return runner != null;
    }

    /** How one polling loop waits between its passes: running the engine when inline, spinning politely when not. */
    Pacer pacer() {
        if (runner == null) {
            return new BenchEndpoint.Spinner()::idle;
        }
        return runner::step;
    }

    /** Runs a call that blocks (the rendezvous) while a standby thread keeps the engine going. */
    <T> T away(Supplier<T> blocking) {
        return runner == null ? blocking.get() : runner.away(blocking);
    }

    void away(Runnable blocking) {
        away(() -> {
            blocking.run();
            return null;
        });
    }

    /** Stops the standby thread, then closes the device on the calling thread. */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
        device.close();
    }

    /** One polling loop's wait between passes. */
    @FunctionalInterface
    interface Pacer {
        /** Called after each pass with the work the pass did. */
        void idle(int work);
    }
}
