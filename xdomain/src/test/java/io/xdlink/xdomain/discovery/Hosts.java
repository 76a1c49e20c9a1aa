package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.InMemoryControlChannel;
import io.xdlink.xdomain.VirtualScheduler;
import io.xdlink.xdomain.service.HostIdentity;
import io.xdlink.xdomain.service.ServiceRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/** Two hosts on one cable in virtual time: the set-up most discovery tests share. */
final class Hosts {
    static final UUID LOW = UUID.fromString("11111111-0000-4000-8000-000000000001");
    static final UUID HIGH = UUID.fromString("f1111111-0000-4000-8000-000000000002");
    static final long MS = 1_000_000L;

    final VirtualScheduler scheduler = new VirtualScheduler();
    final TestCable cable;
    final XdomainHost a;
    final XdomainHost b;
    final Tap tapA;
    final Tap tapB;
    final InMemoryControlChannel[] channels;
    final PeerDiscovery atA;
    final PeerDiscovery atB;
    final List<Peer> historyA = new ArrayList<>();
    final List<Peer> historyB = new ArrayList<>();

    Hosts(UUID uuidA, UUID uuidB, Generation generation, TestCable.Port portA, TestCable.Port portB) {
        cable = new TestCable(scheduler, generation, portA, portB);
        a = new XdomainHost(scheduler, uuidA, new ServiceRegistry(HostIdentity.linux("alpha"), 100));
        b = new XdomainHost(scheduler, uuidB, new ServiceRegistry(HostIdentity.linux("beta"), 200));
        channels = InMemoryControlChannel.pair(scheduler, 10_000);
        tapA = new Tap(channels[0]);
        tapB = new Tap(channels[1]);
        atA = a.connect("0-1", 1, tapA, cable.end(0));
        atB = b.connect("0-3", 3, tapB, cable.end(1));
        atA.addListener(historyA::add);
        atB.addListener(historyB::add);
    }

    /** Both Gen 3, both dual lane, A the lower UUID. */
    static Hosts gen3() {
        return new Hosts(LOW, HIGH, Generation.GEN3, TestCable.Port.dualLane(), TestCable.Port.dualLane());
    }

    Hosts start() {
        atA.start();
        atB.start();
        return this;
    }

    /** Runs virtual time until {@code done} holds or {@code limitMs} pass; returns the virtual ms it took. */
    long runUntil(Predicate<Hosts> done, long limitMs) {
        long start = scheduler.nanoTime();
        long end = start + limitMs * MS;
        while (!done.test(this) && scheduler.nanoTime() < end && scheduler.nextDeadline() <= end) {
            scheduler.advanceToNext();
        }
        return (scheduler.nanoTime() - start) / MS;
    }

    long runUntilBothEnumerated(long limitMs) {
        return runUntil(h -> h.atA.peer().enumerated() && h.atB.peer().enumerated(), limitMs);
    }

    /** Runs virtual time for {@code ms}. */
    void run(long ms) {
        scheduler.advance(ms * MS);
    }

    static boolean visited(List<Peer> history, DiscoveryState state) {
        return history.stream().anyMatch(p -> p.state() == state);
    }
}
