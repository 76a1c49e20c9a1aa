package io.xdlink.rails.host;

import io.xdlink.rails.tcp.ControlConnection;
import io.xdlink.rails.tcp.IoLoop;
import io.xdlink.rails.tcp.TcpLinkEndpoint;
import io.xdlink.rails.tcp.TcpSettings;
import io.xdlink.xdomain.discovery.XdomainHost;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Every session stream of a host and the session with each peer they serve. It dials the session listeners it
 * knows of whenever their peer has no session, runs discovery on each stream that opens (dialled or accepted), and
 * hands the session of a peer a stream once discovery names the peer's rails. Confined to the loop, except
 * {@link #session}, which callers use to wait for a session.
 */
final class SessionTable {
    private final UUID local;
    private final IoLoop loop;
    private final TcpSettings tcp;
    private final XdomainHost xdomain;
    private final Supplier<HostTopology> topology;
    private final Consumer<String> events;
    private final Map<UUID, PeerSession> sessions = new ConcurrentHashMap<>();
    private final List<Dialer> dialers = new ArrayList<>();
    private final Map<ControlConnection, StreamDiscovery> streams = new HashMap<>();
    private boolean closed;

    /** A session listener this host keeps dialling while the peer behind it has no session. */
    private static final class Dialer {
        final InetSocketAddress remote;
        final InetSocketAddress bind;
        final HostLink via;
        UUID expected;
        boolean inFlight;
        boolean self;
        String lastError = "";

        Dialer(InetSocketAddress remote, InetSocketAddress bind, HostLink via, UUID expected) {
            this.remote = remote;
            this.bind = bind;
            this.via = via;
            this.expected = expected;
        }
    }

    SessionTable(UUID local, IoLoop loop, TcpSettings tcp, XdomainHost xdomain, Supplier<HostTopology> topology,
                 Consumer<String> events) {
        this.local = local;
        this.loop = loop;
        this.tcp = tcp;
        this.xdomain = xdomain;
        this.topology = topology;
        this.events = events;
    }

    /** The session with {@code peer}, made on first use. Any thread. */
    PeerSession session(UUID peer) {
        return sessions.computeIfAbsent(peer, p -> new PeerSession(local, p));
    }

    /** The session with {@code peer} if there is one yet, else null. Any thread. */
    PeerSession existing(UUID peer) {
        return sessions.get(peer);
    }

    /**
     * Dials {@code remote} (from {@code bind}, when not null) whenever its peer has no session.
     *
     * @param via      the local link the stream runs beside
     * @param expected the peer behind it when known, or null to learn it from the first discovery
     */
    void dial(InetSocketAddress remote, InetSocketAddress bind, HostLink via, UUID expected) {
        for (Dialer d : dialers) {
            if (d.remote.equals(remote)) {
                return;
            }
        }
        dialers.add(new Dialer(remote, bind, via, expected));
    }

    /** What runs a stream a session listener on {@code via}'s address accepted. */
    ControlConnection.Listener accepting(HostLink via) {
        return listener(via, null);
    }

    /** Dials every listener whose peer has no session; re-arms itself every reconnect interval. */
    void tick() {
        if (closed) {
            return;
        }
        for (Dialer d : dialers) {
            if (d.inFlight || d.self) {
                continue;
            }
            if (d.expected != null) {
                PeerSession s = sessions.get(d.expected);
                if (s != null && s.isUp()) {
                    continue;
                }
            }
            d.inFlight = true;
            try {
                ControlConnection.connect(loop, d.bind, d.remote, tcp, listener(d.via, d));
            } catch (IOException e) {
                d.inFlight = false;
                noteDialError(d, e);
            }
        }
        loop.schedule(tcp.reconnectInterval().toNanos(), this::tick);
    }

    private void noteDialError(Dialer d, IOException e) {
        String msg = String.valueOf(e.getMessage());
        if (!msg.equals(d.lastError)) {
            d.lastError = msg;
            events.accept("dialling " + d.remote + ": " + msg);
        }
    }

    private ControlConnection.Listener listener(HostLink via, Dialer dialer) {
        return new ControlConnection.Listener() {
            @Override
            public void opened(ControlConnection c) {
                if (closed) {
                    c.close();
                    return;
                }
                StreamDiscovery d = new StreamDiscovery(xdomain, c, via, dialer == null ? null : dialer.expected,
                        peer -> !topology.get().linksTo(peer).isEmpty(), tcp.connectTimeout(),
                        new StreamDiscovery.Outcome() {
                            @Override
                            public void enumerated(ControlConnection stream, UUID peer, List<TcpLinkEndpoint> eps) {
                                if (dialer != null) {
                                    dialer.expected = peer;
                                    dialer.lastError = "";
                                }
                                adopt(stream, peer, eps);
                            }

                            @Override
                            public void refused(ControlConnection stream, String why, boolean self) {
                                if (dialer != null && self) {
                                    dialer.self = true;
                                }
                                events.accept(why);
                                stream.close();
                            }
                        });
                streams.put(c, d);
                d.start();
            }

            @Override
            public void closed(ControlConnection c, IOException cause) {
                StreamDiscovery d = streams.remove(c);
                if (d != null) {
                    d.stop();
                }
                if (dialer != null) {
                    dialer.inFlight = false;
                    noteDialError(dialer, cause);
                }
                for (PeerSession s : sessions.values()) {
                    if (!s.down(c, cause)) {
                        continue;
                    }
                    if (cause instanceof SocketTimeoutException) {
                        // The keepalive already waited its timeout for a word from the peer.
                        s.declareLost();
                        events.accept("peer " + s.peer() + " lost: " + cause.getMessage());
                    } else {
                        long since = s.downs();
                        events.accept("peer " + s.peer() + " session ended (" + cause.getMessage()
                                + "); the peer counts as lost unless another session is up within "
                                + tcp.keepaliveTimeout().toMillis() + " ms");
                        loop.schedule(tcp.keepaliveTimeout().toNanos(), () -> {
                            if (!closed && s.lostUnlessBack(since)) {
                                events.accept("peer " + s.peer() + " lost: no session came back within "
                                        + tcp.keepaliveTimeout().toMillis() + " ms (" + cause.getMessage() + ")");
                            }
                        });
                    }
                }
            }
        };
    }

    private void adopt(ControlConnection stream, UUID peer, List<TcpLinkEndpoint> endpoints) {
        PeerSession s = session(peer);
        boolean wasUp = s.isUp();
        if (!s.adopt(stream, endpoints)) {
            stream.close();
            return;
        }
        if (!wasUp) {
            events.accept("peer " + peer + " up on " + stream.name());
        }
    }

    /** Closes every stream and session. */
    void close(String why) {
        closed = true;
        sessions.values().forEach(s -> s.close(why));
        new ArrayList<>(streams.keySet()).forEach(ControlConnection::close);
    }
}
