package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceStats;
import io.xdlink.rails.verbs.RailStats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * What a device's engine counts: frames by kind in each direction, frames it turned away and why, and the bugs it
 * lived through. One object the engine's rooms share (frame dispatch, the pools, the queue pairs' halves), each
 * adding to its own counters with a plain field increment: a counter on the hot path costs a store, never a call.
 * Written on the engine's thread only; {@link DeviceStats} is a snapshot of them, and the few another thread reads
 * while the engine runs are read with {@link VarHandle} or volatile semantics.
 */
final class EngineCounters {
    private static final VarHandle DATA_FRAMES_RECEIVED;

    static {
        try {
            DATA_FRAMES_RECEIVED = MethodHandles.lookup().findVarHandle(EngineCounters.class, "dataFramesReceived",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long dataFramesSent;
    long dataFramesReceived;
    /** Messages whose every byte arrived, at this side's receiving queue pairs; read by polled cycles. */
    long messagesReceived;
    /** Data frames that continued a run ({@link ReceiveRun}): taken the short way. */
    long runFrames;
    long ackFramesSent;
    long ackFramesReceived;
    long creditFramesSent;
    long nakFramesSent;
    long nakFramesQueued;
    long retransmittedFrames;
    long duplicateData;
    long corruptFrames;
    long malformedFrames;
    long staleFrames;
    long rnrEvents;
    /**
     * Payload bytes of data frames placed that a transport had read straight into their place, and those the engine
     * copied there from wherever the transport handed them over (its buffer, a ring slot, the sender's memory).
     */
    long payloadBytesInPlace;
    long payloadBytesCopied;
    /**
     * Bugs the engine met and lived through ({@link #internalError}): written on the engine's thread only, volatile
     * so a test or a tool on another thread sees a count that is never meant to be anything but zero.
     */
    private volatile long internalErrors;
    private volatile Throwable lastError;

    /**
     * A bug met on the engine's thread (a frame's handling, a duty cycle, a close) that the engine lives through:
     * counted in {@link DeviceStats#internalErrors()} and kept as {@link Device#lastError()}, never swallowed, since
     * on a lossy fabric retransmission would otherwise hide it.
     */
    void internalError(Throwable t) {
        internalErrors++;
        lastError = t;
    }

    Throwable lastError() {
        return lastError;
    }

    /**
     * {@link #dataFramesReceived} from any thread: the engine counts with plain stores, this reads the last one it
     * can see, never a torn value, at most a moment behind.
     */
    long dataFramesReceivedFromAnyThread() {
        return (long) DATA_FRAMES_RECEIVED.getOpaque(this);
    }

    /** The counters, the in-flight budget's bytes and each rail's own counts, as one snapshot. */
    DeviceStats snapshot(InflightBudget budget, List<Rail> rails) {
        List<RailStats> rs = new ArrayList<>();
        for (Rail r : List.copyOf(rails)) {
            rs.add(r.stats());
        }
        return new DeviceStats(dataFramesSent, dataFramesReceived, ackFramesSent, ackFramesReceived,
                creditFramesSent, nakFramesSent, retransmittedFrames, duplicateData, corruptFrames, malformedFrames,
                staleFrames, budget.bytes(), budget.maxBytes(), internalErrors, payloadBytesInPlace, payloadBytesCopied,
                rs);
    }
}
