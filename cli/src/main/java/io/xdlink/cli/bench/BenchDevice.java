package io.xdlink.cli.bench;

import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.agent.OwnerRunner;
import io.xdlink.rails.agent.TimerSlack;
import io.xdlink.rails.tcp.TcpIdleStrategy;
import io.xdlink.rails.verbs.Device;

import java.util.function.Supplier;

/**
 * A benchmark's device and who runs its progress engine. Over real hosts the bench's own thread runs it
 * ({@link OwnerRunner}): the loop that posts a WRITE also sends its frames, and the loop that waits for a ping also
 * reads it and answers, so a round trip costs each host one wake-up, as a socket ping-pong does, and each side keeps
 * one busy thread, not a poller beside a progress thread. While the bench blocks on its rendezvous with the peer a
 * standby thread keeps the engine going. In one process ({@code --loopback}) the same holds for each end's device,
 * its thread parking when idle until the simulated cable wakes it.
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

    /**
     * A device in invoker mode whose engine the bench's threads run. Over TCP rails ({@code simulated} false) an idle
     * thread waits on its rails' sockets; over the simulator it parks and the simulated cable wakes it.
     */
    static BenchDevice inline(Device device, boolean simulated) {
        if (!device.config().invoker()) {
            throw new IllegalArgumentException("an inline bench device needs a device in invoker mode");
        }
        if (simulated) {
            // Its threads park for microseconds while a frame crosses the simulated cable; with the kernel's default
            // timer slack each park oversleeps by up to 50 us (see TimerSlack). This thread's setting passes to the
            // threads it starts from here on: the standby below and the server's responder.
            TimerSlack.set(SIMULATED_TIMER_SLACK_NANOS);
        }
        BenchDevice[] self = new BenchDevice[1];
        OwnerRunner runner = new OwnerRunner(device.agent(),
                simulated ? BenchDevice::idleParked : BenchDevice::idleOnRails, e -> self[0].engineError = e,
                device.config().clock()::nanoTime);
        if (simulated) {
            device.wakeOwnerWith(runner::wake);
        }
        self[0] = new BenchDevice(device, runner);
        return self[0];
    }

    /** Timer slack of the threads that wait for the simulated cable. */
    static final long SIMULATED_TIMER_SLACK_NANOS = 1_000;

    /**
     * Over the simulator: 100 idle passes and a yield, then a park that the simulated cable ends when a frame arrives.
     * Both ends live in this process, and a round trip over the 1 us simulated cable takes about 2 us, so a waiting
     * thread that keeps looking for a few tens of microseconds finds the answer without a park and an unpark. In
     * turns on two cores, `write_lat --loopback` 2 B with 100 passes took 1.9-2.3 us typical and 1.9-2.3 on average
     * (99th percentile 2.3-4.8 us), against 2.1-2.3 typical but 4.7-8.0 on average (99th percentile 19-31 us) with
     * 10; 64 KiB 6.7-6.8 us on average in five runs (18.4 in a sixth, slow from its start) against 8.4-10.0, and the
     * quick start moved 4470-4550 MB/s against 4100-4140.
     */
    private static BackoffIdleStrategy idleParked() {
        return new BackoffIdleStrategy(100, 1, 1_000, 1_000_000);
    }

    /**
     * An idle thread looks at its rails 100 more times (100 duty cycles, each a read of every rail), then sleeps on
     * their sockets until a frame arrives, as a blocking read would. A round trip between two hosts is mostly shorter
     * than those looks, and a thread woken from a sleep pays the scheduler's wake-up. In the two-host lab on a 2-core
     * virtual machine, in turns, `write_lat` 2 B took 6.1-6.5 us typical with 30 looks against 29.6-42.5 us sleeping
     * at once (the blocking socket beside it 30-35 us), 4 KiB 7.0-7.7 against 35.6. With 30 looks a 64 KiB round
     * trip often outlasted them: 16-66 us typical over six rounds, against 15-29 with 100 (2 B and 4 KiB the same
     * either way; 300 looks gave 64 KiB 24-28). Yields are left out: an earlier build that spun 100 cycles and then
     * yielded 10 times before sleeping took 102 us typical, the peer's thread being the one its yields handed the
     * processor around. The 100 looks are where the window starts: it grows when answers keep coming soon after
     * a sleep (see the rails' SpinWindow), so a pair of ends whose wake-ups are late does not sleep every round trip.
     */
    private static TcpIdleStrategy idleOnRails() {
        return new TcpIdleStrategy(100, 0, 1);
    }

    Device device() {
        return device;
    }

    /** What the device last ran into, for a failure's message: an internal error, else why a rail went; or null. */
    Throwable lastError() {
        Throwable t = engineError != null ? engineError : device.lastError();
        return t != null ? t : device.lastRailClosure();
    }

    /** How one polling loop waits between its passes: it runs the engine, then idles when nothing moved. */
    Pacer pacer() {
        return runner::step;
    }

    /** As {@link #pacer}, for a loop that waits for the peer's answer to its own message (a ping-pong). */
    Pacer answerPacer() {
        return work -> runner.step(work, true);
    }

    /** Runs a call that blocks (the rendezvous) while a standby thread keeps the engine going. */
    <T> T away(Supplier<T> blocking) {
        return runner.away(blocking);
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
        runner.close();
        device.close();
    }

    /** One polling loop's wait between passes. */
    @FunctionalInterface
    interface Pacer {
        /** Called after each pass with the work the pass did. */
        void idle(int work);
    }
}
