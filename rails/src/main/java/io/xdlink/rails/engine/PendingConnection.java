package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Listener;

/** A connection request the engine has received and not yet handed to {@link Listener#accept}. */
public record PendingConnection(PeerPool pool, long connId, int srcQpn, int maxMessages, int psnWindow) {
}
