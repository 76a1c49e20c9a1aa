package io.xdlink.cli.bench;

import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.verbs.RailStats;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A side waits for a rail on every cable to its peer before a run, and says which it runs without. */
class BenchSideTest {
    private static final UUID PEER = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000a");
    private static final UUID OTHER = UUID.fromString("1a2b3c4d-0000-4000-8000-00000000000c");
    private static final LinkState GEN2 = LinkState.of(Generation.GEN2, 1);

    private static PeerInfo peer(UUID id, String... links) {
        return new PeerInfo(id, "lab", Arrays.stream(links)
                .map(l -> new LinkInfo(l, "thunderbolt" + l.charAt(l.length() - 1), GEN2)).toList());
    }

    private static RailStats rail(int number, String link, String state) {
        return new RailStats(number, "rail" + number, link, state, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aCableIsCoveredOnlyByARailThatIsUpOnIt() {
        List<PeerInfo> peers = List.of(peer(PEER, "0-1", "0-3"), peer(OTHER, "0-5"));

        assertThat(BenchSide.cablesWithoutRail(peers, PEER, List.of())).containsExactly("0-1", "0-3");
        assertThat(BenchSide.cablesWithoutRail(peers, PEER, List.of(rail(0, "0-3", "UP"))))
                .containsExactly("0-1");
        assertThat(BenchSide.cablesWithoutRail(peers, PEER, List.of(rail(0, "0-3", "UP"),
                rail(1, "0-1", "HANDSHAKE")))).as("a rail still in its handshake carries nothing yet")
                .containsExactly("0-1");
        assertThat(BenchSide.cablesWithoutRail(peers, PEER, List.of(rail(0, "0-3", "UP"), rail(1, "0-1", "UP"))))
                .isEmpty();
        assertThat(BenchSide.cablesWithoutRail(peers, PEER, List.of(rail(0, "0-3", "UP"), rail(1, "0-1", "DOWN"))))
                .containsExactly("0-1");
        assertThat(BenchSide.cablesWithoutRail(peers, UUID.randomUUID(), List.of()))
                .as("a peer the fabric does not list has no cables to wait for").isEmpty();
    }

    @Test
    void waitsUntilTheLateCableHasItsRail() {
        Deque<List<String>> answers = new ArrayDeque<>(List.of(List.of("0-1"), List.of("0-1"), List.of("0-1")));
        int[] asked = {0};
        List<String> last = BenchSide.awaitNone(() -> {
            asked[0]++;
            return answers.isEmpty() ? List.of() : answers.poll();
        }, Duration.ofMinutes(1));

        assertThat(last).isEmpty();
        assertThat(asked[0]).isEqualTo(4);
    }

    @Test
    void givesUpAfterItsLimitAndNamesTheCablesStillWithout() {
        List<String> last = BenchSide.awaitNone(() -> List.of("0-1"), Duration.ofMillis(100));

        assertThat(last).containsExactly("0-1");
    }
}
