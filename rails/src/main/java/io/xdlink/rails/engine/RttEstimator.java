package io.xdlink.rails.engine;

/**
 * A rail's round-trip estimate and the retransmission timeout it gives: the smoothed round trip and its variation,
 * as TCP keeps them (RFC 6298). Every sequence is sent once, so each sample is a true round trip. Engine thread only.
 */
final class RttEstimator {
    private long srtt;
    private long rttvar;

    /** A frame sent {@code rtt} ago was acknowledged. */
    void sample(long rtt) {
        if (srtt == 0) {
            srtt = Math.max(1, rtt);
            rttvar = rtt / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - rtt)) / 4;
            srtt = Math.max(1, (7 * srtt + rtt) / 8);
        }
    }

    /**
     * The retransmission timeout: {@code floor} (the parameter), or the smoothed round trip plus four variations
     * when the rail is slower than that (a loaded host, a long cable), so a late ACK is not taken for a loss.
     */
    long rto(long floor) {
        return Math.max(floor, srtt + 4 * rttvar);
    }

    /** The smoothed round trip; 0 before the first sample. */
    long smoothed() {
        return srtt;
    }
}
