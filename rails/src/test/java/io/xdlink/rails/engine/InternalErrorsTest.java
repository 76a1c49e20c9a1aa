package io.xdlink.rails.engine;

import io.xdlink.rails.BuggyRail;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bug the progress engine lives through is never swallowed: each one is counted in
 * {@link DeviceStats#internalErrors()} and the last kept as {@link Device#lastError()}, whether it came from a
 * frame's handling, a duty cycle that threw on the engine's own thread, or a transport's close. The engine goes on
 * working afterwards.
 */
class InternalErrorsTest {

    private static InMemoryRailPair pair() {
        return InMemoryRailPair.create(new RailInfo("mem0", "c0", LinkState.of(Generation.GEN3, 2), false), 1024);
    }

    /** B writes 4 KiB to A and the write must succeed: the engines still work. */
    private static void aWriteStillLands(TwoDevices t, Arena arena, int id) {
        MemoryRegion src = t.pdB.register(arena.allocate(4096));
        MemoryRegion dst = t.pdA.register(arena.allocate(4096), Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        assertThat(t.qpB().postWrite(id, src, 0, 4096, dst.address(), dst.rkey())).isTrue();
        assertThat(t.next(t.cqB).status()).isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    void aFrameInFreedMemoryIsCountedAndTheRailGoesOn() throws Exception {
        InMemoryRailPair p = pair();
        BuggyRail aEnd = new BuggyRail(p.a());
        try (TwoDevices t = new TwoDevices(List.of(aEnd), List.of(p.b()), RailsSettings.defaults(), 5).connect();
             Arena arena = Arena.ofShared()) {
            assertThat(t.a.stats().internalErrors()).isZero();
            assertThat(t.a.lastError()).isNull();
            aEnd.freedFrame = true;
            assertThat(t.driver.runUntil(() -> !aEnd.freedFrame, 1_000_000_000L)).as("the freed frame was polled")
                    .isTrue();
            assertThat(t.a.stats().internalErrors()).isEqualTo(1);
            assertThat(t.a.lastError()).isInstanceOf(IllegalStateException.class);
            // Not a frame the peer got wrong: neither counter of bad frames moved.
            assertThat(t.a.stats().malformedFrames() + t.a.stats().corruptFrames()).isZero();
            aWriteStillLands(t, arena, 1);
            assertThat(t.a.stats().internalErrors()).isEqualTo(1);
            assertThat(t.b.stats().internalErrors()).isZero();
        }
    }

    @Test
    void aDutyCycleThatThrowsOnTheEnginesThreadIsCounted() throws Exception {
        InMemoryRailPair p = pair();
        BuggyRail aEnd = new BuggyRail(p.a());
        UUID id = new UUID(7, 1);
        try (Device a = Device.open(DeviceConfig.builder().id(id).settings(RailsSettings.defaults())
                .thread(new BackoffIdleStrategy()).seed(7).build(), List.of(aEnd))) {
            aEnd.throwingFlush = true;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (a.stats().internalErrors() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no internal error counted within 30 s; last error " + a.lastError());
                }
                Thread.sleep(1);
            }
            assertThat(a.lastError()).hasMessage("flush broke");
        } finally {
            p.b().close();
        }
    }

    @Test
    void aTransportWhoseCloseThrowsIsCountedAndTheDeviceStillCloses() throws Exception {
        InMemoryRailPair p = pair();
        BuggyRail aEnd = new BuggyRail(p.a());
        TwoDevices t = new TwoDevices(List.of(aEnd), List.of(p.b()), RailsSettings.defaults(), 9).connect();
        aEnd.throwingClose = true;
        t.close();
        assertThat(t.a.isClosed()).isTrue();
        assertThat(t.a.stats().internalErrors()).isEqualTo(1);
        assertThat(t.a.lastError()).hasMessage("close broke");
        assertThat(p.a().isOpen()).isFalse();
        assertThat(t.b.stats().internalErrors()).isZero();
    }
}
