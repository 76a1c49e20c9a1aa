package io.xdlink.rails.engine;

import java.util.UUID;

/**
 * A rail's HELLO handshake: which epoch this side proposes, which one both sides agreed, and who is at the other
 * end. A rail not up proposes an epoch every HELLO interval; a HELLO from the peer either answers the proposal
 * (REPLY with the proposed epoch) or proposes its own, which this side takes and answers unless both are proposing
 * and this side's identity is the smaller (its own proposal then wins). A HELLO for the epoch already agreed is
 * answered again: the peer missed the answer. Engine thread only.
 */
final class Handshake {
    /** Which HELLO is due ({@link #due}). */
    enum Hello { NONE, PROPOSAL, REPLY }

    private final UUID self;
    private int epoch;
    private int proposed;
    private UUID peer;
    private int peerNumber;
    private boolean replyDue;
    private long lastProposalAt = Long.MIN_VALUE;

    Handshake(UUID self, int initialEpoch) {
        this.self = self;
        this.epoch = initialEpoch & 0xFF;
        this.proposed = this.epoch;
    }

    /**
     * A HELLO from {@code device} for epoch {@code e}, an answer if {@code reply}, on a rail that is {@code up} or
     * not. Returns true when the rail is to start (again) in that epoch; answering is booked here.
     */
    boolean onHello(boolean reply, int e, UUID device, boolean up) {
        if (reply) {
            return !up && e == proposed && device.equals(peer == null ? device : peer);
        }
        if (up && e == epoch && device.equals(peer)) {
            replyDue = true;
            return false;
        }
        if (!up && e != proposed && self.compareTo(device) < 0) {
            return false; // both sides are proposing: the smaller identity's epoch wins, and ours is it
        }
        replyDue = true;
        return true;
    }

    /** Whether {@code device} is not the peer the rail had. */
    boolean otherPeer(UUID device) {
        return peer != null && !peer.equals(device);
    }

    /** Epoch {@code e} is agreed with rail {@code peerNumber} of {@code device}. */
    void agree(int e, UUID device, int peerNumber) {
        this.peer = device;
        this.peerNumber = peerNumber;
        this.epoch = e;
        this.proposed = e;
    }

    /** The rail failed: it proposes the next epoch, at once, and owes no answer. */
    void restart() {
        proposed = (epoch + 1) & 0xFF;
        lastProposalAt = Long.MIN_VALUE;
        replyDue = false;
    }

    boolean replyDue() {
        return replyDue;
    }

    /** Which HELLO goes at {@code now} on a rail {@code up} or not: a reply, a proposal or none. */
    Hello due(boolean up, long now, long interval) {
        if (replyDue && up) {
            return Hello.REPLY;
        }
        if (up || (lastProposalAt != Long.MIN_VALUE && now - lastProposalAt < interval)) {
            return Hello.NONE;
        }
        return Hello.PROPOSAL;
    }

    /** The epoch a HELLO of {@code kind} carries. */
    int epochOf(Hello kind) {
        return kind == Hello.REPLY ? epoch : proposed;
    }

    /** A HELLO of {@code kind} went at {@code now}. */
    void sent(Hello kind, long now) {
        if (kind == Hello.REPLY) {
            replyDue = false;
        } else {
            lastProposalAt = now;
        }
    }

    /** When a rail not up next proposes: at once if it has not yet. */
    long nextProposalAt(long now, long interval) {
        return lastProposalAt == Long.MIN_VALUE ? now : lastProposalAt + interval;
    }

    int epoch() {
        return epoch;
    }

    /** This side's identity, which its HELLOs carry. */
    UUID self() {
        return self;
    }

    UUID peer() {
        return peer;
    }

    /** The number the peer gave its end of the rail: ACKs name rails by it. */
    int peerNumber() {
        return peerNumber;
    }

    /** Whether a peer was agreed and this side's identity is the smaller of the two. */
    boolean selfIsSmaller() {
        return peer != null && self.compareTo(peer) < 0;
    }
}
