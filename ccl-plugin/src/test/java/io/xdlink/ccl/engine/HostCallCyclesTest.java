package io.xdlink.ccl.engine;

import io.xdlink.ccl.EngineTurn;
import io.xdlink.rails.Agent;
import io.xdlink.rails.verbs.MemoryRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which duty cycles of a real host's engine each of its calls runs, over an 8-byte ping-pong's steps: every cycle
 * is a socket read and, with anything queued, a socket write, so a turn of the ping-pong costs what these add up to.
 * The engines themselves are stepped by the wire; the turn the ends call counts the cycles they ask for.
 */
class HostCallCyclesTest extends WiredTurnTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0x5EED_C7C1L);


    /** Counts the cycles host threads (not the standby) ask for; the wire runs the engines. */
    private static final class CountingAgent implements Agent {
        final AtomicInteger posts = new AtomicInteger();
        /** A post's cycle that leaves reading the rails to the host's next look. */
        final AtomicInteger postings = new AtomicInteger();
        final AtomicInteger looks = new AtomicInteger();
        final AtomicInteger standby = new AtomicInteger();

        @Override
        public int doWork() {
            return count(posts);
        }

        @Override
        public int doWorkPosting() {
            return count(postings);
        }

        @Override
        public int doWorkStandingBy() {
            return count(looks);
        }

        private int count(AtomicInteger host) {
            (Thread.currentThread().getName().endsWith("-standby") ? standby : host).incrementAndGet();
            return 0;
        }

        int total() {
            return posts.get() + postings.get() + looks.get();
        }

        @Override
        public String roleName() {
            return "counted-engine";
        }
    }

    private EngineTurn turn(CountingAgent agent, boolean hostPolls) throws InterruptedException {
        // After its first cycle this standby idles until the test ends, so every cycle counted is a host call's.
        // The standby pauses longer than the test while the host calls, so it runs no cycle once the host has.
        EngineTurn t = new EngineTurn(agent, RailsWire.sleepsUntil(stop), System::nanoTime, hostPolls,
                TimeUnit.SECONDS.toNanos(30));
        open.add(t);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (agent.standby.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        // The host is calling: a proxy thread polls its requests all the time.
        t.poll();
        return t;
    }

    @Test
    @Timeout(60)
    void aPollingHostsReceiveLeavesWithItsNextSendAndATestOfADoneRequestReadsNothing() throws Exception {
        for (boolean hostPolls : new boolean[] {true, false}) {
            CountingAgent agent = new CountingAgent();
            EngineTurn turn = turn(agent, hostPolls);
            RailsWire wire = new RailsWire(SEED);
            open.add(wire);
            SendEndpoint send = wire.sendEnd(false, turn);
            RecvEndpoint recv = wire.recvEnd(false, turn);
            open.add(send::close);
            open.add(recv::close);
            MemorySegment src = RailsWire.filled(arena, 8, SEED);
            MemorySegment dst = arena.allocate(8, 64);
            MemoryRegion srcMem = send.register(src);
            MemoryRegion dstMem = recv.register(dst);
            String mode = "hostPolls=" + hostPolls;

            int before = agent.total();
            int posts = agent.posts.get();
            int looks = agent.looks.get();
            IrecvRequest r = recv.irecv(new MemorySegment[] {dst}, new int[] {3}, new MemoryRegion[] {dstMem});
            assertThat(r).isNotNull();
            // A polling host calls again at once: the advertisement waits for that call, which is most often the
            // send of its answer, so both leave in one write. A host that does not poll has it leave now.
            assertThat(agent.total() - before).as("cycles of the irecv, " + mode).isEqualTo(hostPolls ? 0 : 1);

            wire.step();
            before = agent.total();
            IsendRequest s = send.isend(src, 3, srcMem);
            assertThat(s).as("the advertisement arrived").isNotNull();
            // The advertisement had arrived: the send posts without reading the rails first, and its one cycle,
            // a post's, carries everything queued. A polling host's test() follows at once and reads the rails, so
            // that cycle leaves the reading to it; for a host that does not poll it reads as well.
            assertThat(agent.total() - before).as("cycles of the isend, " + mode).isEqualTo(1);
            assertThat(agent.postings.get()).as("cycles that leave the reading to the next look, " + mode)
                    .isEqualTo(hostPolls ? 1 : 0);
            assertThat(agent.posts.get() - posts).as("post cycles so far, " + mode).isEqualTo(hostPolls ? 0 : 2);

            wire.step();
            before = agent.total();
            long[] sizes = new long[1];
            assertThat(r.test(sizes)).as("the write landed").isTrue();
            assertThat(sizes[0]).isEqualTo(8);
            assertThat(dst.mismatch(src)).isEqualTo(-1);
            // Already done: the host gets it back without a read of the rails that would find nothing.
            assertThat(agent.total() - before).as("cycles of a test of a done receive, " + mode).isZero();

            IrecvRequest next = recv.irecv(new MemorySegment[] {dst}, new int[] {3}, new MemoryRegion[] {dstMem});
            before = agent.total();
            assertThat(next.test(null)).as("nothing sent yet").isFalse();
            // Not done: a polling host's test reads the rails once, and that cycle is also the post's the irecv
            // left to it, so the advertisement goes out. A host that does not poll is answered from the end's
            // attention while nothing new arrived.
            assertThat(agent.total() - before).as("cycles of a test of a waiting receive, " + mode)
                    .isEqualTo(hostPolls ? 1 : 0);
            assertThat(agent.looks.get() - looks).as("standing-by looks, " + mode).isZero();
            assertThat(next.test(null)).isFalse();
            assertThat(agent.looks.get() - looks).as("standing-by looks after a second test, " + mode)
                    .isEqualTo(hostPolls ? 1 : 0);
        }
    }
}
