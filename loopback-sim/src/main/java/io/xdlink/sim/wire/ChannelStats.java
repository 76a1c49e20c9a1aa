package io.xdlink.sim.wire;

/**
 * What happened to the frames of one rail direction.
 *
 * @param sent       frames that took wire time (every accepted offer)
 * @param lost       frames the fault plan lost
 * @param duplicated frames delivered twice
 * @param reordered  frames held back behind a later one
 * @param corrupted  frames with a flipped bit
 * @param overflowed frames dropped because the receive ring was full (end-to-end flow control off)
 * @param delivered  frames handed to the receiver
 */
public record ChannelStats(long sent, long lost, long duplicated, long reordered, long corrupted, long overflowed,
                           long delivered) {
}
