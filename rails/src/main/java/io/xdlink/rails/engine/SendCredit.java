package io.xdlink.rails.engine;

/**
 * A rail's sending side as the peer's ring allows it: the next sequence, the credit position the peer last granted
 * (it may send below it), the window the peer announced, and the part of it kept back. Data stops
 * {@code controlReserve + UNSEQUENCED_BUDGET} short of the credit position and control frames
 * {@code UNSEQUENCED_BUDGET} short, so control frames always find room and the unsequenced frames (CREDIT, HELLO)
 * can never overflow the peer's ring. Engine thread only.
 */
final class SendCredit {
    private int nextSeq;
    private int peerCredit;
    private int peerWindow;
    private int controlReserve;

    /** A new epoch with a peer whose ring holds {@code peerWindow} frames, {@code controlReserve} of them kept back. */
    void reset(int peerWindow, int controlReserve) {
        this.peerWindow = peerWindow;
        this.controlReserve = controlReserve;
        this.nextSeq = 0;
        this.peerCredit = peerWindow;
    }

    int nextSeq() {
        return nextSeq;
    }

    /** {@code n} sequenced frames went out. */
    void advance(int n) {
        nextSeq += n;
    }

    /** Credits left: sequences the peer's ring still has room for. */
    int credits() {
        return peerCredit - nextSeq;
    }

    int peerWindow() {
        return peerWindow;
    }

    /** Whether the credit left lets a data frame go. */
    boolean allowsData() {
        return credits() > controlReserve + Rail.UNSEQUENCED_BUDGET;
    }

    /** Data frames the credit left lets go one after another (may be negative). */
    int dataRoom() {
        return credits() - controlReserve - Rail.UNSEQUENCED_BUDGET;
    }

    /** Whether the credit left lets a control frame go. */
    boolean allowsControl() {
        return credits() > Rail.UNSEQUENCED_BUDGET;
    }

    /** The peer's advertised position is behind what this rail has sent. */
    boolean lagging() {
        return nextSeq - (peerCredit - peerWindow) > 0;
    }

    /** Whether {@code position} lies beyond every sequence sent: an ACK no frame of this epoch can have earned. */
    boolean beyondSent(int position) {
        return position - nextSeq > 0;
    }

    /**
     * The peer granted credit up to {@code credit}. Returns true when that raised it: a grant below the current one,
     * or beyond what the peer's window allows for what was sent, is stale or bogus and ignored.
     */
    boolean raise(int credit) {
        if (credit - peerCredit > 0 && credit - (nextSeq + peerWindow) <= 0) {
            peerCredit = credit;
            return true;
        }
        return false;
    }
}
