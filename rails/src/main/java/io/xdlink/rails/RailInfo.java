package io.xdlink.rails;

import io.xdlink.xdomain.LinkState;

/**
 * What a rail runs over.
 *
 * @param name   a name for logs and banners ({@code thunderbolt0}, {@code sim:cable1/rail0})
 * @param linkId the cable: rails with the same linkId share that link's bandwidth, rails on different links add up
 * @param link   what the link negotiated
 * @param lossy  true when frames can be lost (no end-to-end flow control), so the protocol must recover them
 * @param intact true when every frame the rail delivers is, bit for bit, the frame that was offered: memory handed
 *               from one end to the other with nothing between that could flip a bit (a simulated rail whose fault
 *               plan corrupts nothing), or a stream whose own checks the host trusts (a TCP rail). The receiving
 *               engine then skips recomputing each frame's CRC ({@code frame_crc=full} asks for it all the same);
 *               every other check of a frame stays. A rail that may damage a frame says false.
 */
public record RailInfo(String name, String linkId, LinkState link, boolean lossy, boolean intact) {

    /** A rail that may damage a frame on the way, so its receiver checks every frame's CRC. */
    public RailInfo(String name, String linkId, LinkState link, boolean lossy) {
        this(name, linkId, link, lossy, false);
    }

    /** The same rail, delivering frames intact or not. */
    public RailInfo withIntact(boolean delivered) {
        return delivered == intact ? this : new RailInfo(name, linkId, link, lossy, delivered);
    }
}
