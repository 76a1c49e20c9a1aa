package io.xdlink.rails.verbs;

import java.util.List;

/**
 * A device's counters. Exact in invoker mode or once the device is idle; approximate while a progress thread runs.
 *
 * @param dataFramesSent      data frames sent, retransmissions included
 * @param dataFramesReceived  data frames received
 * @param ackFramesSent       coalesced acknowledgements sent
 * @param ackFramesReceived   acknowledgements received
 * @param creditFramesSent    standalone credit updates and probes sent
 * @param nakFramesSent       refusals sent
 * @param retransmittedFrames data frames sent again
 * @param duplicateFrames     data frames whose bytes had already arrived (dropped)
 * @param corruptFrames       frames failing their CRC
 * @param malformedFrames     frames failing another check
 * @param staleFrames         frames of another epoch, or for a rail not up
 * @param inflightBytes       data bytes sent and not settled, now
 * @param maxInflightBytes    the most there ever were
 * @param internalErrors      bugs the progress engine caught and lived through (an exception handling a frame, in
 *                            a duty cycle, closing a transport); never anything but zero unless something is wrong,
 *                            and the last one is {@link Device#lastError()}
 * @param payloadBytesInPlace data bytes received that the rail's transport read straight into the memory they belong
 *                            in (a TCP rail's WRITE payloads), so nothing copied them after the kernel
 * @param payloadBytesCopied  data bytes received that were copied into their place from where the rail handed them
 *                            over (its receive buffer, a ring slot, the sender's memory on an in-memory rail)
 * @param rails               each rail
 */
public record DeviceStats(long dataFramesSent, long dataFramesReceived, long ackFramesSent, long ackFramesReceived,
                          long creditFramesSent, long nakFramesSent, long retransmittedFrames, long duplicateFrames,
                          long corruptFrames, long malformedFrames, long staleFrames, long inflightBytes,
                          long maxInflightBytes, long internalErrors, long payloadBytesInPlace,
                          long payloadBytesCopied, List<RailStats> rails) {
    public DeviceStats {
        rails = List.copyOf(rails);
    }
}
