package io.xdlink.rails.verbs;

/**
 * One rail as its device sees it.
 *
 * @param number             the rail's number on this device
 * @param name               the transport's name
 * @param linkId             the cable it runs over
 * @param state              HANDSHAKE, UP, DOWN (failed over, probing) or CLOSED
 * @param epoch              the epoch agreed with the peer
 * @param credits            sequences the peer's ring has room for as this side knows it; after quiescing this
 *                           equals {@code window}: no credit ever leaks
 * @param window             the peer's receive ring, frames
 * @param framesSent         every frame sent
 * @param framesReceived     every frame received in a current epoch
 * @param dataFramesSent     data frames sent, retransmissions included
 * @param dataFramesReceived data frames received (duplicates included)
 * @param lostFrames         data frames declared lost and queued again
 * @param duplicateFrames    sequenced frames received twice, or outside the window
 * @param failovers          times the rail failed while up
 * @param rejoins            times it came back
 * @param unsettled          data frames sent and not yet settled
 */
public record RailStats(int number, String name, String linkId, String state, int epoch, int credits, int window,
                        long framesSent, long framesReceived, long dataFramesSent, long dataFramesReceived,
                        long lostFrames, long duplicateFrames, long failovers, long rejoins, int unsettled) {
}
