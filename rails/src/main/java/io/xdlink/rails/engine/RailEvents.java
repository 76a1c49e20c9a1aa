package io.xdlink.rails.engine;

import io.xdlink.rails.RailClosedException;

import java.util.UUID;

/**
 * What a rail reports to the engine that owns it. Calls run one way, from the engine down to its rails; a rail
 * reaches back only through this, never through the engine's or its pool's fields. What each report means for the
 * pools, the in-flight budget and the queue pairs is the engine's to decide ({@link RailLifecycle}).
 */
interface RailEvents {
    /** The rail needs the clock at {@code at}. */
    void armTimer(long at);

    /** {@code frames} data frames of {@code bytes} in all went out and are in the rail's log. */
    void dataSent(int frames, long bytes);

    /** Data frames of {@code bytes} in all reached the peer. */
    void dataSettled(long bytes);

    /** A data frame the peer did not get: its bytes go again, on whichever rail of the pool sends next. */
    void dataLost(Rail rail, int qpn, int msn, int psn, long offset, int length);

    /** The handshake agreed an epoch with {@code peer}: the rail is up, in that peer's pool. */
    void up(Rail rail, UUID peer);

    /** The rail's other end is now another device: it leaves the pool it was in. */
    void peerChanged(Rail rail);

    /** The rail that was up stopped carrying: its pool goes on without it. */
    void down(Rail rail);

    /** The rail hands its queued blocks back, to go on the other rails of its pool. */
    void released(Rail rail);

    /** The rail's transport is closed or broken. */
    void closed(Rail rail, RailClosedException cause);
}
