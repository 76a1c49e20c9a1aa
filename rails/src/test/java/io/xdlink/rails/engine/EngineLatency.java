package io.xdlink.rails.engine;

import io.xdlink.rails.RailInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import io.xdlink.rails.inmemory.InMemoryRailPair;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionQueue;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.WorkOpcode;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Measures a SEND ping-pong between two devices with progress threads over one in-memory rail: half a round
 * trip, median and 99th percentile. Not a test (it reads the wall clock); run it with
 * {@code java -cp ... io.xdlink.rails.engine.EngineLatency [iterations]}.
 */
public final class EngineLatency {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        InMemoryRailPair p = InMemoryRailPair.create(new RailInfo("m", "c", LinkState.of(Generation.GEN3, 2),
                false), 1024);
        try (Device a = Device.open(DeviceConfig.builder().id(new UUID(9, 1)).settings(RailsSettings.defaults())
                .thread(new BackoffIdleStrategy()).seed(1).build(), List.of(p.a()));
             Device b = Device.open(DeviceConfig.builder().id(new UUID(9, 2)).settings(RailsSettings.defaults())
                     .thread(new BackoffIdleStrategy()).seed(2).build(), List.of(p.b()))) {
            CompletionQueue cqA = a.createCq(1024);
            CompletionQueue cqB = b.createCq(1024);
            Listener l = a.listen();
            Connecting c = b.connect(l.handle(), QpAttributes.of(b.allocPd(), cqB));
            QueuePair qa = null;
            while (qa == null) {
                qa = l.accept(QpAttributes.of(a.allocPd(), cqA));
                Thread.onSpinWait();
            }
            QueuePair qb;
            while ((qb = c.poll()) == null) {
                Thread.onSpinWait();
            }
            QueuePair fa = qa;
            QueuePair fb = qb;
            Thread echo = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < n; i++) {
                    fb.postRecv(i, null, 0, 0);
                    Completion x;
                    while ((x = cqB.poll()) == null || x.opcode() != WorkOpcode.RECV) {
                        Thread.yield();
                    }
                    fb.postSend(i, null, 0, 0, false);
                }
            });
            long[] half = new long[n];
            for (int i = 0; i < n; i++) {
                fa.postRecv(i, null, 0, 0);
                long t0 = System.nanoTime();
                fa.postSend(i, null, 0, 0, false);
                Completion x;
                while ((x = cqA.poll()) == null || x.opcode() != WorkOpcode.RECV) {
                    Thread.yield();
                }
                half[i] = (System.nanoTime() - t0) / 2;
            }
            echo.join();
            long[] s = Arrays.copyOfRange(half, n / 10, n);
            Arrays.sort(s);
            System.out.printf("SEND ping-pong over one in-memory rail, progress threads with backoff idling: half "
                    + "round trip median %.1f us, 99%% %.1f us (%d iterations after %d warm-up)%n",
                    s[s.length / 2] / 1e3, s[(int) (s.length * 0.99)] / 1e3, s.length, n / 10);
        }
    }
}
