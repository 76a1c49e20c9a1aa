package io.xdlink.xdomain.packet;

/**
 * The part of the common XDomain header a message carries besides its type: the route and the sequence number.
 *
 * @param route    route string to the other domain, 63 bits (route_hi bits 30:0 above route_lo); Linux masks bit 63
 *                 (route_hi bit 31) off before it uses a route
 * @param inbound  route_hi bit 31 as it was on the wire: set on packets that arrived from the other domain (a trace
 *                 of a real host shows it on every received packet). Kept so a decoded packet re-encodes to the same
 *                 bytes; it never takes part in matching
 * @param sequence the 2-bit sequence number (length_sn bits 28:27); requests use retries-left % 4, responses copy
 *                 the request's
 */
public record XdpHeader(long route, boolean inbound, int sequence) {

    public XdpHeader {
        if (route < 0) {
            throw new IllegalArgumentException("route must fit 63 bits: " + Long.toHexString(route));
        }
        if (sequence < 0 || sequence > 3) {
            throw new IllegalArgumentException("sequence number must be 0..3: " + sequence);
        }
    }

    /** An outgoing header. */
    public static XdpHeader of(long route, int sequence) {
        return new XdpHeader(route, false, sequence);
    }

    /** The sequence number Linux puts on a request when {@code retriesLeft} retries remain (10 on the first try). */
    public static int sequenceFor(int retriesLeft) {
        return Math.floorMod(retriesLeft, 4);
    }

    /** The header a response to a request with this header carries: same route, same sequence number. */
    public XdpHeader reply() {
        return new XdpHeader(route, false, sequence);
    }
}
