package io.xdlink.rails.inmemory;

/**
 * What one end of an in-memory rail did with the frames offered to it.
 *
 * @param offered     frames offered and accepted (refused offers are not counted)
 * @param delivered   frames the peer could poll (duplicates included)
 * @param lost        frames dropped by the fault plan
 * @param reordered   frames held back behind later ones
 * @param duplicated  extra copies delivered
 * @param corrupted   frames with a flipped bit
 * @param refused     offers refused because the peer's ring was full: a credit protocol with the ring's size as
 *                    its window never sees one
 * @param blackholed  frames swallowed while the rail was down
 */
public record InMemoryRailStats(long offered, long delivered, long lost, long reordered, long duplicated,
                                long corrupted, long refused, long blackholed) {
}
