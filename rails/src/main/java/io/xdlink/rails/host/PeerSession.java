package io.xdlink.rails.host;

import io.xdlink.rails.tcp.ControlConnection;
import io.xdlink.rails.tcp.TcpControlChannel;
import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpRailTransport;
import io.xdlink.xdomain.packet.UuidWords;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This host's session with one peer: the session stream in use, what the peer published about its rails, and every
 * rail opened to it. When the stream is lost (the keepalive found the peer silent, or the peer closed it) every rail
 * to the peer is failed at once, so the progress engine completes every outstanding request with an error instead of
 * waiting on a dead host; a later stream (the fabric keeps dialling) brings the session back.
 *
 * <p>Two hosts may dial each other at the same moment. Both then keep the stream dialled by the host with the lower
 * UUID and close the other, so they agree without a word.
 */
final class PeerSession {
    /** The session as it stands while up. */
    record Up(ControlConnection connection, List<TcpLinkEndpoint> endpoints) {
        Up {
            endpoints = List.copyOf(endpoints);
        }
    }

    private final UUID local;
    private final UUID peer;
    private final Set<TcpRailTransport> rails = ConcurrentHashMap.newKeySet();
    private volatile CompletableFuture<Up> up = new CompletableFuture<>();
    private ControlConnection connection;
    private volatile TcpControlChannel user;
    private IOException lastLoss;

    PeerSession(UUID local, UUID peer) {
        this.local = local;
        this.peer = peer;
    }

    UUID peer() {
        return peer;
    }

    /** Completes when the session is up (now, or after the next stream's handshake). Any thread. */
    CompletableFuture<Up> up() {
        return up;
    }

    boolean isUp() {
        return connection != null;
    }

    /** Why the session was last lost, if it was. */
    IOException lastLoss() {
        return lastLoss;
    }

    /**
     * A stream finished its handshake with this peer. Returns false when an existing stream wins the tie-break;
     * the caller then closes {@code stream}.
     */
    boolean adopt(ControlConnection stream, List<TcpLinkEndpoint> endpoints) {
        ControlConnection old = connection;
        if (old != null && old != stream && old.isOpen()) {
            if (!prefer(stream, old)) {
                return false;
            }
            connection = stream;
            old.close(); // its loss is not the session's: it is no longer the current stream
            closeUser();
        }
        connection = stream;
        Up now = new Up(stream, endpoints);
        if (!up.complete(now)) {
            up = CompletableFuture.completedFuture(now);
        }
        return true;
    }

    /** True when {@code a} was dialled by the host with the lower UUID and {@code b} was not. */
    private boolean prefer(ControlConnection a, ControlConnection b) {
        UUID dialledA = a.outbound() ? local : peer;
        UUID dialledB = b.outbound() ? local : peer;
        return UuidWords.compareRaw(dialledA, dialledB) < 0;
    }

    /** A stream closed; if it was the session's, the session is lost and every rail to the peer fails. */
    void lost(ControlConnection stream, IOException cause) {
        if (stream != connection) {
            return;
        }
        connection = null;
        lastLoss = cause;
        up = new CompletableFuture<>();
        closeUser();
        failRails("peer " + peer + " lost: " + cause.getMessage(), cause, true);
    }

    /** Adds a rail opened to this peer; fails it at once if the session was lost meanwhile. Any thread. */
    void track(TcpRailTransport rail, Up at) {
        rails.removeIf(r -> !r.isOpen());
        rails.add(rail);
        Up now = up.getNow(null);
        if (now == null || now.connection() != at.connection()) {
            IOException why = lastLoss;
            rail.fail("peer " + peer + " lost while the rail was being opened"
                    + (why == null ? "" : ": " + why.getMessage()), why, true);
        }
    }

    void failRails(String why, Throwable cause, boolean peerLost) {
        for (TcpRailTransport r : rails) {
            r.fail(why, cause, peerLost);
        }
        rails.clear();
    }

    /** The control channel handed out to users; replaces an earlier one. On the loop. */
    TcpControlChannel openUser() throws IOException {
        if (connection == null) {
            throw new IOException("no session with peer " + peer);
        }
        closeUser();
        TcpControlChannel[] made = new TcpControlChannel[1];
        made[0] = connection.channel(ControlConnection.USER_CHANNEL, () -> {
            if (user == made[0]) {
                user = null;
            }
        });
        user = made[0];
        return user;
    }

    private void closeUser() {
        TcpControlChannel u = user;
        user = null;
        if (u != null) {
            u.close();
        }
    }

    /** Closes the stream and fails every rail; the fabric is closing. On the loop. */
    void close(String why) {
        ControlConnection c = connection;
        connection = null;
        closeUser();
        if (c != null) {
            c.close();
        }
        up.completeExceptionally(new IOException(why));
        failRails(why, null, false);
    }
}
