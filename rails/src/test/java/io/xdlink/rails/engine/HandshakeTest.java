package io.xdlink.rails.engine;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** How two sides agree on a rail's epoch, and when each says HELLO. */
class HandshakeTest {
    private static final UUID SMALL = new UUID(0, 1);
    private static final UUID LARGE = new UUID(0, 2);
    private static final long INTERVAL = 1_000;

    @Test
    void aRailNotUpProposesAtOnceThenEveryInterval() {
        Handshake h = new Handshake(SMALL, 0x1_05);
        assertThat(h.epochOf(Handshake.Hello.PROPOSAL)).as("eight bits").isEqualTo(5);
        assertThat(h.due(false, 0, INTERVAL)).isEqualTo(Handshake.Hello.PROPOSAL);
        assertThat(h.nextProposalAt(7, INTERVAL)).isEqualTo(7);
        h.sent(Handshake.Hello.PROPOSAL, 10);
        assertThat(h.due(false, 10 + INTERVAL - 1, INTERVAL)).isEqualTo(Handshake.Hello.NONE);
        assertThat(h.due(false, 10 + INTERVAL, INTERVAL)).isEqualTo(Handshake.Hello.PROPOSAL);
        assertThat(h.nextProposalAt(20, INTERVAL)).isEqualTo(10 + INTERVAL);
        assertThat(h.due(true, 10 + INTERVAL, INTERVAL)).as("an up rail does not propose")
                .isEqualTo(Handshake.Hello.NONE);
    }

    @Test
    void whenBothProposeTheSmallerIdentitysEpochWins() {
        Handshake small = new Handshake(SMALL, 5);
        Handshake large = new Handshake(LARGE, 9);
        assertThat(small.onHello(false, 9, LARGE, false)).as("ours wins: theirs is ignored").isFalse();
        assertThat(small.replyDue()).isFalse();
        assertThat(large.onHello(false, 5, SMALL, false)).as("theirs wins: taken").isTrue();
        assertThat(large.replyDue()).isTrue();
        large.agree(5, SMALL, 3);
        assertThat(small.onHello(true, 5, LARGE, false)).as("the answer to our proposal").isTrue();
        small.agree(5, LARGE, 0);
        assertThat(List.of(small.epoch(), large.epoch(), large.peerNumber())).containsExactly(5, 5, 3);
    }

    @Test
    void aHelloForTheAgreedEpochIsAnsweredAgainAndAStaleReplyIsIgnored() {
        Handshake h = new Handshake(LARGE, 1);
        h.agree(1, SMALL, 0);
        assertThat(h.onHello(false, 1, SMALL, true)).as("no restart").isFalse();
        assertThat(h.due(true, 0, INTERVAL)).isEqualTo(Handshake.Hello.REPLY);
        h.sent(Handshake.Hello.REPLY, 0);
        assertThat(h.replyDue()).isFalse();
        assertThat(h.onHello(true, 1, SMALL, true)).as("a reply on an up rail").isFalse();
        assertThat(h.onHello(true, 2, SMALL, false)).as("a reply to an epoch not proposed").isFalse();
        assertThat(h.onHello(true, 1, new UUID(0, 3), false)).as("a reply from another device").isFalse();
    }

    @Test
    void aFailedRailProposesTheNextEpochAtOnceAndNoticesANewPeer() {
        Handshake h = new Handshake(SMALL, 0);
        h.agree(255, LARGE, 1);
        h.onHello(false, 255, LARGE, true);
        h.restart();
        assertThat(h.replyDue()).isFalse();
        assertThat(h.epochOf(Handshake.Hello.PROPOSAL)).as("wraps in eight bits").isZero();
        assertThat(h.due(false, 0, INTERVAL)).isEqualTo(Handshake.Hello.PROPOSAL);
        assertThat(h.otherPeer(LARGE)).isFalse();
        assertThat(h.otherPeer(new UUID(0, 3))).isTrue();
        assertThat(h.self()).isEqualTo(SMALL);
    }
}
