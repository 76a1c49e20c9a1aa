package io.xdlink.rails.engine;

import io.xdlink.rails.ForwardingRailTransport;
import io.xdlink.rails.ParkedRead;
import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailTransport;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An engine that reads several rails names their sockets for a quiet host thread to wait on ({@link
 * io.xdlink.rails.Agent#watchRails}) only when its last cycle left nothing to send and every rail's last read found
 * nothing; an engine on one rail parks its read instead and names nothing.
 */
class WatchRailsTest {
    private static final long FAR = TimeUnit.SECONDS.toNanos(60);

    /** An in-memory rail that names a socket of its own when told to, as an idle TCP rail names its descriptor. */
    private static final class NamedRail extends ForwardingRailTransport {
        final int fd;
        volatile boolean idle = true;

        NamedRail(RailTransport inner, int fd) {
            super(inner);
            this.fd = fd;
        }

        @Override
        public int watchDescriptor() {
            return idle ? fd : -1;
        }
    }

    private static TwoDevices devices(int rails, List<NamedRail> named) {
        List<RailTransport> a = new ArrayList<>();
        List<RailTransport> b = new ArrayList<>();
        for (int i = 0; i < rails; i++) {
            InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("mem" + i, "cable" + i,
                    LinkState.of(Generation.GEN3, 2), false), 1024);
            NamedRail r = new NamedRail(p.a(), 40 + i);
            named.add(r);
            a.add(r);
            b.add(p.b());
        }
        return new TwoDevices(a, b, RailsSettings.defaults(), 42);
    }

    @Test
    void anIdleEngineOnTwoRailsNamesBothSocketsUntilTheDeadline() throws Exception {
        List<NamedRail> named = new ArrayList<>();
        try (TwoDevices t = devices(2, named).connect()) {
            t.settle(1_000_000_000L);
            ParkedRead park = new ParkedRead(300_000);
            t.a.agent().doWork();
            long deadline = System.nanoTime() + FAR;
            assertThat(t.a.agent().parkRead(park, deadline)).as("two rails park no read").isFalse();
            assertThat(t.a.agent().watchRails(park, deadline)).isTrue();
            assertThat(park.block().get(JAVA_LONG, ParkedRead.WATCH_DEADLINE)).isEqualTo(deadline);
            assertThat(park.block().get(JAVA_INT, ParkedRead.WATCH_COUNT)).isEqualTo(2);
            assertThat(park.block().get(JAVA_INT, ParkedRead.WATCH_DESCRIPTORS)).isEqualTo(40);
            assertThat(park.block().get(JAVA_INT, ParkedRead.WATCH_DESCRIPTORS + 4)).isEqualTo(41);

            park.unwatch();
            named.get(1).idle = false; // its last read brought bytes, or output waits for room
            assertThat(t.a.agent().watchRails(park, deadline)).as("a rail with something under way").isFalse();
            assertThat(park.watching()).isFalse();
        }
    }

    @Test
    void anEngineOnOneRailNamesNothing() throws Exception {
        List<NamedRail> named = new ArrayList<>();
        try (TwoDevices t = devices(1, named).connect()) {
            t.settle(1_000_000_000L);
            ParkedRead park = new ParkedRead(300_000);
            t.a.agent().doWork();
            assertThat(t.a.agent().watchRails(park, System.nanoTime() + FAR)).isFalse();
            assertThat(park.watching()).isFalse();
        }
    }
}
