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
import io.xdlink.rails.RailClosedException;

/**
 * This host's session with one peer: the session stream in use, what the peer published about its rails, and every
 * rail opened to it. When the keepalive finds the peer silent, every rail to the peer is failed at once, so the
 * progress engine completes every outstanding request with an error instead of waiting on a dead host; a later
 * stream (the fabric keeps dialling) brings the session back.
 *
 * <p>A stream that merely ends (the peer closed it, a reset) leaves the session down but the peer not yet lost: the
 * peer is lost only if no other stream takes over within the keepalive timeout. Two hosts may dial each other at
 * the same moment, or one host dial over two cables at once; both then keep the stream dialled by the host with the
 * lower UUID and close the others, and the side that had already adopted a stream the other closed must not take
 * that for the peer's death (every request to it would fail while the peer is alive and well).
 */
final class PeerSession {
    /** The session as it stands while up. */
    record Up(ControlConnection connection, List<TcpLinkEndpoint> endpoints, long losses) {
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
    // Times the session went down (on the loop), and times the peer was declared lost (read by any thread).
    private long downs;
    private volatile long losses;
    /** Why the peer was declared lost, until a session is up again; null while it is not lost. */
    private volatile String lost;

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
        lost = null;
        Up now = new Up(stream, endpoints, losses);
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

    /**
     * A stream closed. If it was the session's, the session is down (returns true) and rails are opened again only
     * once another stream is up; whether the peer is lost is the caller's call: {@link #declareLost} or
     * {@link #lostUnlessBack}. On the loop.
     */
    boolean down(ControlConnection stream, IOException cause) {
        if (stream != connection) {
            return false;
        }
        connection = null;
        lastLoss = cause;
        up = new CompletableFuture<>();
        closeUser();
        downs++;
        return true;
    }

    /** How many times the session went down so far; pass it to {@link #lostUnlessBack}. On the loop. */
    long downs() {
        return downs;
    }

    /**
     * Declares the peer lost if the session is still down since down number {@code since}, and returns whether it
     * did: every rail to the peer fails, marked {@link RailClosedException#peerLost()}. On the loop.
     */
    boolean lostUnlessBack(long since) {
        if (connection != null || downs != since) {
            return false;
        }
        declareLost();
        return true;
    }

    /** The peer is gone: every rail to it fails, marked peer-lost. On the loop. */
    void declareLost() {
        losses++;
        IOException why = lastLoss;
        lost = "peer " + peer + " lost" + (why == null ? "" : ": " + why.getMessage());
        failRails("peer " + peer + " lost" + (why == null ? "" : ": " + why.getMessage()), why, true);
    }

    /** Why the peer counts as lost now, or null while it does not. Any thread. */
    String lost() {
        return lost;
    }

    /**
     * Adds a rail opened to this peer; fails it at once if the peer was declared lost since the session it was
     * opened under came up. A session that only changed streams meanwhile keeps it. Any thread.
     */
    void track(TcpRailTransport rail, Up at) {
        rails.removeIf(r -> !r.isOpen());
        rails.add(rail);
        // Added before the check: a declaration racing this either sees the rail in the set or bumped the count.
        if (losses != at.losses()) {
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
