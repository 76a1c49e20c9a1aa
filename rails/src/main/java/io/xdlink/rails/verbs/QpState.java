package io.xdlink.rails.verbs;

/** Where a queue pair is in its life. */
public enum QpState {
    /** Created by {@code connect}; receives may be posted, sends wait until the peer answers. */
    CONNECTING,
    /** Connected: sends and receives run. */
    READY,
    /** Something failed: every outstanding request was flushed, new ones are flushed at once. */
    ERROR,
    /** Closed by its owner or with its device. */
    CLOSED
}
