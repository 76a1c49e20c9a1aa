package io.xdlink.ccl;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;
import io.xdlink.params.Params;
import io.xdlink.rails.IdleStrategy;
import io.xdlink.rails.RailsParams;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.agent.ThreadNice;
import io.xdlink.rails.tcp.TcpIdleStrategy;

import java.util.List;
import java.util.Optional;

/**
 * The plugin's parameters: how the progress threads of its rails devices wait while idle, and whether they also
 * finish the plugin's requests. A host's proxy threads
 * poll test() on the same processors, so every idle cycle an engine spins or yields is one a poller does not get.
 * The defaults (10 spins, 1 yield, where the rails' own default is 100 and 10) were measured with bench's
 * CclLatency on a 2-core host: the 8-byte round trip was 67-84 us with them against 127-201 us with the rails'
 * counts. A parked device thread is woken when work arrives, so fewer spins cost a wake-up, not a lost frame.
 */
public final class CclParams implements ParamProvider {

    public static final ParamSpec<Long> IDLE_SPINS = ParamSpec.builder("ccl_idle_spins",
                    new ParamType.Int(0, 100_000, true))
            .defaultValue(10L).unit("cycles")
            .description("Idle cycles the plugin's device threads spin before they yield (idle_strategy=backoff); "
                    + "hosts with cores to spare may raise it")
            .build();

    public static final ParamSpec<Long> IDLE_YIELDS = ParamSpec.builder("ccl_idle_yields",
                    new ParamType.Int(0, 100_000, true))
            .defaultValue(1L).unit("cycles")
            .description("Idle cycles the plugin's device threads yield before they park (idle_strategy=backoff)")
            .build();

    /*
     * Off by default: measured with bench's CclLatency on a 2-core host (40 rounds, interleaved runs at load 2.2-2.7),
     * draining on the device threads gave 93-100 us Java API and 78-85 us native round trips, against 66-67 and
     * 72-75 us with the host's calls draining. The extra work on the progress threads delays both ways there;
     * test() then never enters Java (0 of ~260 calls per round trip, against 4), which a host with cores to spare
     * for the progress threads may prefer.
     */
    public static final ParamSpec<Boolean> DRAIN_ON_PROGRESS = ParamSpec.builder("ccl_drain_on_progress",
                    new ParamType.Bool())
            .defaultValue(false)
            .description("The plugin's device threads finish requests as their completions arrive, so test() of a "
                    + "done request is answered without entering Java; off, the host's calls do it")
            .build();

    /*
     * "host" by default: measured with tests/src/test/c/netbench-lab.sh (two processes across the two-namespace lab,
     * one unshaped cable, 2 cores at load average 5, runs interleaved), the 8-byte round trip's median was 61 and
     * 69 us with it against 172 and 166 us with a progress thread; bandwidth at 64 KiB to 8 MiB varied more between
     * runs (3-19 Gb/s either way) than between the two.
     */
    public static final ParamSpec<String> ENGINE = ParamSpec.builder("ccl_engine",
                    new ParamType.Enum(List.of("host", "thread")))
            .defaultValue("host")
            .description("Who runs the rails engine of a real host's plugin device: host (the host's isend, irecv "
                    + "and test calls step it when they can, a standby thread sleeping on the rails' sockets "
                    + "otherwise) or thread (a progress thread of its own, as over the simulator)")
            .build();

    /*
     * On by default: measured with tests/src/test/c/netbench-lab.sh (two processes across the two-namespace lab, one
     * unshaped cable, 2 cores, load average 2.4-4.0, 3 rounds in turns with the build before it), 1 MiB messages
     * moved at 13.4, 14.9 and 23.5 Gb/s with it against 7.3, 12.0 and 11.8, 8 MiB at 8.7, 11.2 and 21.8 against 7.3,
     * 9.2 and 9.3; 64 KiB and the 8-byte round trip moved within the noise. Without it a comm with nothing new is answered by the native mirror, and only the
     * standby thread, woken by the socket, reads what arrives: one more wake-up per message on a host whose spinning
     * proxy already holds a processor.
     */
    public static final ParamSpec<Boolean> HOST_POLLS = ParamSpec.builder("ccl_host_polls", new ParamType.Bool())
            .defaultValue(true)
            .description("With ccl_engine=host, every test() and isend enters the plugin's Java side and runs a duty "
                    + "cycle of the rails engine, reading the rails as a socket transport's test() reads its socket; "
                    + "off, a comm with nothing new is answered natively and the standby thread reads the rails")
            .build();

    /*
     * 1 ms by default, measured with tests/src/test/c/netbench-lab.sh (one unshaped cable, 2 cores, load average
     * 1.5-3.2, rounds in turns with 0, both with host polls that leave an asked-for acknowledgement to the host's next
     * post). Waiting on the rails' sockets, the standby woke on every frame that arrived (about once per round trip)
     * and took a third of a processor from the hosts' own polling threads: the 8-byte round trip's median was 26.8,
     * 38.1 and 31.5 us with the pause against 69.6, 89.3 and 65.0 us without, and 31.9, 39.3, 35.8 against 79.4,
     * 62.2, 57.1 on a later day. The standby pauses only while no duty cycle of the last pause ended with bytes on
     * their way through the rails (EngineTurn.stepAside): pausing through such transfers moved 1 MiB messages at
     * 8.7, 9.1 and 8.4 Gb/s against 13.0, 12.7 and 11.7 without the pause; staying on the sockets for them, 13.7,
     * 11.1, 10.4, 12.5, 10.0, 9.9 and 8.2 against 14.2, 16.1, 9.9, 12.2, 9.4, 7.4 and 8.4. A host that stops calling
     * gets the standby back on the sockets within two pauses.
     */
    public static final ParamSpec<Long> STANDBY_PAUSE = ParamSpec.builder("ccl_standby_pause_us",
                    new ParamType.Int(0, 100_000, true))
            .defaultValue(1000L).unit("us")
            .description("With ccl_host_polls, while the host's calls keep running the rails engine, the standby "
                    + "thread stays off the rails until this long has passed since the host's last call, instead of "
                    + "waiting on the rails' sockets; 0: it never does")
            .build();

    /*
     * 10 us by default: measured with tests/src/test/c/netbench-lab.sh -- --plugin-only (two processes across the
     * two-namespace lab, one unshaped cable, 2 cores, load average 1.9-4.1, runs in turns on one build with the hold
     * switched by this parameter): 64 KiB messages moved a mean 28.7 Gb/s with it against 26.3 without over eight
     * rounds each, higher in six; a first version of the same, switched by a property, 27.6 against 24.7 over twelve
     * (higher in nine), its sending end making 0.56 gathering writes a message instead of 1.0 (perf stat, 3 s). 1 MiB
     * and 8 MiB moved 60.1 and 58.6, 58.4 and 58.5 Gb/s with it against 51.6 and 49.5, 57.4 and 55.6. A round trip
     * never holds (nothing is in flight before its send); what it costs is up to this long for a send posted while
     * earlier ones wait for their acknowledgement, when no next send comes within it.
     */
    public static final ParamSpec<Long> SEND_HOLD = ParamSpec.builder("ccl_send_hold_us",
                    new ParamType.Int(0, 1000, true))
            .defaultValue(10L).unit("us")
            .description("With ccl_host_polls, a send of more than 1 KiB posted while earlier sends of its comm are "
                    + "still in flight waits up to this long for the comm's next send, so the two leave in one "
                    + "socket write; 0: every send leaves as it is posted")
            .build();

    /**
     * On a 2-processor virtual machine in the two-host lab, a stream between two plugin processes whose host threads
     * both polled stopped now and then for 100 ms, both ends at once, while the guest's timers waited for an
     * interrupt (a scheduler trace showed both host threads on the processors throughout, and every sleeping thread
     * waking together when it ended); a plain socket whose ends poll with yields stopped the same way, one whose ends
     * block did not. A look that waits in the kernel lets the processor go idle and the interrupts through.
     */
    public static final ParamSpec<Long> LOOK_WAIT = ParamSpec.builder("ccl_look_wait_us",
                    new ParamType.Int(0, 100000, true))
            .defaultValue(300L).unit("us")
            .description("With ccl_host_polls, once a host thread's test() calls have found nothing done and no bytes "
                    + "for this long, its next look waits on the rail's socket until bytes come or the engine's next "
                    + "timer (on several rails, on their sockets; where none can be named it naps 50 us), giving the "
                    + "processor back; 0: looks never wait")
            .build();

    /*
     * 19 by default: each standby wakes about 900 times a second while the host streams (its pauses), and at nice 0
     * each wake-up took a processor from a host's polling thread in the middle of its turn. Measured in one plugin-only
     * stream between two processes in the two-host lab, the standby threads switched between nice 0, nice 19 and
     * SCHED_IDLE every 2 s (the receiving process's bytes read per window): 64 KiB moved a median of 30.71 Gb/s at
     * nice 19 against 29.83 at nice 0 (six windows each, 30.49-30.85 against 29.53-30.13), 1 MiB 56.6 against 53.5,
     * 8 MiB 80.5 against 78.6, and the 8-byte round trip as many a second either way. SCHED_IDLE gave 64 KiB and
     * 1 MiB more (31.62, 57.8) but 8 MiB 69.8: a large message needs the standby on the sockets while the host's
     * thread is between calls, and an idle-class thread runs only when nothing else wants the processor. Measured
     * again on the build that sets it, against the standby put back to nice 0 in the same way: 64 KiB 31.30 against
     * 30.30 Gb/s (seven windows each), 1 MiB 58.5 against 57.7, 8 MiB 60.2 against 61.0 (ten windows each). What it
     * costs: on a host whose processors are all taken, a standby at nice 19 waits for a running thread's turn to end
     * or yield before it takes up what the host left when it stopped calling, where at nice 0 it would preempt.
     */
    public static final ParamSpec<Long> STANDBY_NICE = ParamSpec.builder("ccl_standby_nice",
                    new ParamType.Int(0, ThreadNice.LOWEST, true))
            .defaultValue(19L)
            .description("Nice value of the thread that runs the rails engine while the host's calls are away "
                    + "(ccl_engine=host; Linux): above 0 its wake-ups give way to the host's own threads")
            .build();

    private static final long MIN_PARK_NANOS = 1_000;
    private static final long MAX_PARK_NANOS = 1_000_000;
    private static final List<ParamSpec<?>> ALL =
            List.of(IDLE_SPINS, IDLE_YIELDS, DRAIN_ON_PROGRESS, ENGINE, HOST_POLLS, STANDBY_PAUSE, STANDBY_NICE,
                    SEND_HOLD, LOOK_WAIT);

    /**
     * The idle strategy of the plugin's device threads: a backoff with these counts, parking from 1 us to 1 ms as
     * the rails' default does; empty when {@code idle_strategy} asks for something else, which the rails then give.
     */
    static Optional<IdleStrategy> idle(Params params) {
        if (!"backoff".equals(params.get(RailsParams.IDLE_STRATEGY))) {
            return Optional.empty();
        }
        return Optional.of(new BackoffIdleStrategy(params.get(IDLE_SPINS).intValue(),
                params.get(IDLE_YIELDS).intValue(), MIN_PARK_NANOS, MAX_PARK_NANOS));
    }

    /**
     * The idle strategy of a real host's standby engine thread ({@code ccl_engine=host}): the same spins and yields,
     * then a sleep of at most 1 ms on the rails' sockets, so an arriving frame wakes it at once.
     */
    static IdleStrategy standbyIdle(Params params) {
        return new TcpIdleStrategy(params.get(IDLE_SPINS).intValue(), params.get(IDLE_YIELDS).intValue(), 1);
    }

    @Override
    public String module() {
        return "ccl-plugin";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return ALL;
    }
}
