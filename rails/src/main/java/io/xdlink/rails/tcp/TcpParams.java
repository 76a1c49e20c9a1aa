package io.xdlink.rails.tcp;

import io.xdlink.params.ParamProvider;
import io.xdlink.params.ParamSpec;
import io.xdlink.params.ParamType;

import java.util.List;

/**
 * The knobs of TCP rails and of the real host's fabric. Every name starts with {@code tcp_} or {@code host_} so it
 * cannot meet a name of the protocol core's.
 */
public final class TcpParams implements ParamProvider {

    public static final ParamSpec<Long> CONTROL_PORT = ParamSpec.builder("tcp_control_port", new ParamType.Int(0, 65535, true))
            .defaultValue(18520L)
            .description("TCP port of the session (XDomain control) listener on each link's interface; 0 picks a free port")
            .build();

    public static final ParamSpec<Long> RAIL_PORT = ParamSpec.builder("tcp_rail_port", new ParamType.Int(0, 65535, true))
            .defaultValue(0L)
            .description("TCP port of the rail listener on each link's interface; 0 picks a free port, which the handshake advertises")
            .build();

    public static final ParamSpec<List<String>> PEER_ADDRESSES = ParamSpec.builder("tcp_peer_address",
                    new ParamType.ListOf<>(new ParamType.Str(262), 64))
            .defaultValue(List.of())
            .description("session listeners of peers as address:port ([v6]:port), dialled in turn, instead of finding peers by a hello on each link; empty: find them whatever the links' addressing")
            .build();

    public static final ParamSpec<String> ADDRESS_FILE = ParamSpec.builder("tcp_address_file", new ParamType.Str(4096))
            .defaultValue("")
            .description("file the host writes its session listeners' address:port to once bound, one a line (for launchers that start ranks with tcp_control_port=0 and hand the port to the peer); empty: none")
            .build();

    public static final ParamSpec<List<String>> RAIL_INTERFACES = ParamSpec.builder("tcp_rail_interface",
                    new ParamType.ListOf<>(new ParamType.Str(300), 64))
            .defaultValue(List.of())
            .description("link=interface-or-address overrides of the interface rails bind to (default: the link's thunderbolt-net interface)")
            .build();

    public static final ParamSpec<Long> CONNECT_TIMEOUT = ParamSpec.builder("tcp_connect_timeout_ms", new ParamType.Int(1, 600_000, true))
            .defaultValue(5_000L)
            .unit("ms")
            .description("how long opening a session or a rail may wait for the peer's side")
            .build();

    /*
     * 250 ms: twelve heartbeats within the 3 s timeout. Data runs over the rails, so a session is quiet during a
     * transfer and each heartbeat wakes the session's loop on both hosts: at 10 ms that was about 200 wake-ups a second
     * in each process, each one taking a processor from the thread moving the data on a two-core host.
     */
    public static final ParamSpec<Long> KEEPALIVE_INTERVAL = ParamSpec.builder("tcp_keepalive_interval_ms", new ParamType.Int(1, 60_000, true))
            .defaultValue(250L)
            .unit("ms")
            .description("a session sends a heartbeat when it has sent nothing for this long")
            .build();

    public static final ParamSpec<Long> KEEPALIVE_TIMEOUT = ParamSpec.builder("tcp_keepalive_timeout_ms", new ParamType.Int(2, 600_000, true))
            // Long enough for a collection pause or a busy host's scheduling delay plus a full shaped queue on the
            // link, which a 200 ms default mistook for a dead peer in the two-host lab; well under peer_timeout_ms.
            .defaultValue(3000L)
            .unit("ms")
            .description("a peer heard nothing from for this long is dead: its rails close and its requests fail")
            .build();

    public static final ParamSpec<Long> RECONNECT_INTERVAL = ParamSpec.builder("tcp_reconnect_interval_ms", new ParamType.Int(1, 600_000, true))
            .defaultValue(50L)
            .unit("ms")
            .description("pause between attempts to reach a dead or absent peer again")
            .build();

    public static final ParamSpec<Long> SOCKET_SEND_BUFFER = ParamSpec.builder("tcp_sndbuf", new ParamType.Size(0, 1L << 30))
            .defaultValue(0L)
            .unit("bytes")
            .description("SO_SNDBUF of rail sockets; 0 leaves the kernel's autotuning on")
            .build();

    public static final ParamSpec<Long> SOCKET_RECEIVE_BUFFER = ParamSpec.builder("tcp_rcvbuf", new ParamType.Size(0, 1L << 30))
            .defaultValue(0L)
            .unit("bytes")
            .description("SO_RCVBUF of rail sockets; 0 leaves the kernel's autotuning on")
            .build();

    /*
     * 128 KiB, measured side by side on 127.0.0.1 (1 MiB WRITEs against the quicker plain socket blast, in turns in
     * one process): 256 KiB gave 5 to 22 points less in each of five runs, 96, 160 and 192 KiB less too, 64 KiB no
     * more than 256, 32 KiB about half. The sender's batch decides it, not the receiving buffer; most likely a
     * smaller batch and the kernel memory it is copied into stay in the core's cache, while below 64 KiB each write
     * carries too little.
     */
    public static final ParamSpec<Long> RAIL_BUFFER = ParamSpec.builder("tcp_rail_buffer", new ParamType.Size(TcpSettings.MIN_RAIL_BUFFER, 64L << 20))
            .defaultValue(128L << 10)
            .unit("bytes")
            .description("user-space batch buffer per rail and direction: frames offered between two flushes leave in one write")
            .build();

    /*
     * On by default: in the two-host lab (one unshaped veth cable, 1 MiB WRITEs, the two hosts on one machine's two
     * processors) payloads written from registered memory beat payloads copied into the batch first.
     */
    public static final ParamSpec<Boolean> PAYLOAD_BY_REFERENCE = ParamSpec.builder("tcp_payload_by_reference",
                    new ParamType.Bool())
            .defaultValue(true)
            .description("data frames' payloads go to the socket straight from the registered memory they are sent from (one gathering write per batch); off: copied into the rail's batch buffer first")
            .build();

    public static final ParamSpec<Boolean> READ_INTO_PLACE = ParamSpec.builder("tcp_read_into_place",
                    new ParamType.Bool())
            .defaultValue(true)
            .description("the payloads of a WRITE's frames that continue a transfer are read from the socket straight into the registered memory they belong in; off: read into the rail's buffer and copied from there")
            .build();

    /*
     * cubic by default: a rail is a cable of its own, and the host's default may be a pacing algorithm. On a machine
     * whose default was bbr, the two-host lab's rails (and its plain sockets) lost segments' order on their veth
     * cable and recovered by retransmission: 523 recoveries and 10,270 segments sent again in 4 s of a 64 KiB stream
     * between two plugin processes, against none with cubic (`nstat` in each namespace), and 1 MiB moved 15-16 Gb/s
     * against 39-47. See docs/benchmarks.md, "The rails' congestion control".
     */
    public static final ParamSpec<String> CONGESTION_CONTROL = ParamSpec.builder("tcp_congestion",
                    new ParamType.Str(CongestionControl.NAME_BYTES - 1))
            .defaultValue("cubic")
            .description("TCP congestion control of rail sockets (Linux's TCP_CONGESTION), whatever the host's default; a name from net.ipv4.tcp_available_congestion_control, or empty for the host's default. Where it cannot be set, rails keep the host's default, and xdlink bench and the plugin warn as they open a real host's fabric")
            .build();

    public static final ParamSpec<String> HOST_ROOT = ParamSpec.builder("host_root", new ParamType.Str(4096))
            .defaultValue("/")
            .description("file-system root the real host's fabric reads sys/bus/thunderbolt under (a test points it at a fake tree)")
            .build();

    private static final List<ParamSpec<?>> SPECS = List.of(CONTROL_PORT, RAIL_PORT, PEER_ADDRESSES, ADDRESS_FILE, RAIL_INTERFACES,
            CONNECT_TIMEOUT, KEEPALIVE_INTERVAL, KEEPALIVE_TIMEOUT, RECONNECT_INTERVAL, SOCKET_SEND_BUFFER,
            SOCKET_RECEIVE_BUFFER, RAIL_BUFFER, PAYLOAD_BY_REFERENCE,
            READ_INTO_PLACE, CONGESTION_CONTROL, HOST_ROOT);

    @Override
    public String module() {
        return "rails";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return SPECS;
    }
}
