package io.xdlink.ccl;

import io.xdlink.rails.LinkInfo;
import io.xdlink.rails.PeerInfo;
import io.xdlink.xdomain.LinkState;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a device tells the host, derived from the links behind it: never a constant. The speed is what the links
 * negotiated: each cable counted once however many rails run over it, the directions summed over cables, and the
 * slower direction reported. The latency, until a device measures it, is modelled as the time one full frame takes
 * on the wire at that rate.
 */
public final class DeviceModel {
    /** Largest message a send may carry: test() reports sizes as C ints, and a v8 host assumes 1 GiB. */
    public static final long MAX_MESSAGE_BYTES = 1L << 30;
    /** Connections per device this implementation carries. */
    public static final int MAX_COMMS = 65_536;
    private static final int FRAME_BITS = 4096 * 8;
    /** Longest part of a peer's name kept in a device name; a peer publishes at most a short host name. */
    private static final int MAX_PEER_NAME = 64;

    private DeviceModel() {
    }

    /** The rate the host should plan with, Mb/s: the slower direction of all distinct links together. */
    public static long speedMbps(List<LinkInfo> links) {
        Map<String, LinkState> distinct = new LinkedHashMap<>();
        for (LinkInfo l : links) {
            distinct.putIfAbsent(l.id(), l.state());
        }
        long tx = 0;
        long rx = 0;
        for (LinkState s : distinct.values()) {
            tx += s.txMbps();
            rx += s.rxMbps();
        }
        return Math.min(tx, rx);
    }

    /** One frame's time on the wire at {@code speedMbps}, in microseconds. */
    public static float modelledLatencyMicros(long speedMbps) {
        return speedMbps <= 0 ? 0f : (float) FRAME_BITS / speedMbps;
    }

    /** A stable guid per peer, so two devices never look like two ports of one NIC. */
    public static long guid(PeerInfo peer) {
        return peer.domain().getMostSignificantBits() ^ Long.rotateLeft(peer.domain().getLeastSignificantBits(), 17);
    }

    /**
     * The properties of device {@code dev} leading to {@code peer}.
     *
     * @param loopback       a loopback device: no PCI path, named by its index
     * @param pciPath        the host router's PCI device directory on a real host
     * @param latencyMicros  a measured one-way latency, or empty to use the model
     */
    public static DeviceProperties properties(int dev, PeerInfo peer, boolean loopback, Optional<String> pciPath,
                                              Optional<Float> latencyMicros) {
        long speed = speedMbps(peer.links());
        if (speed <= 0) {
            throw new IllegalArgumentException("peer " + peer.name() + " has no negotiated link");
        }
        int speedInt = (int) Math.min(Integer.MAX_VALUE, speed);
        String name = deviceName(dev, peer, loopback);
        return new DeviceProperties(name, loopback ? Optional.empty() : pciPath, guid(peer),
                DeviceProperties.PTR_HOST, speedInt, 0, latencyMicros.orElse(modelledLatencyMicros(speed)),
                MAX_COMMS, CclNet.MAX_RECVS, List.of(dev), MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES, 1);
    }

    /**
     * The device's name: {@code xdlink-loopback0}, or {@code xdlink-} and the peer's name. NCCL splits its interface
     * lists ({@code NCCL_NET_DEVICES}-style selections, {@code NCCL_IB_HCA}) on ',' and on ':' (the port separator),
     * and '^' and '=' lead such a list, so a name must hold none of them to be selectable by its exact spelling. The
     * peer chose its own name; anything but letters, digits, '.', '_' and '-' becomes '_'.
     */
    public static String deviceName(int dev, PeerInfo peer, boolean loopback) {
        if (loopback) {
            return "xdlink-loopback" + dev;
        }
        String n = peer.name();
        StringBuilder b = new StringBuilder("xdlink-");
        for (int i = 0; i < n.length() && i < MAX_PEER_NAME; i++) {
            char c = n.charAt(i);
            boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '_' || c == '-';
            b.append(plain ? c : '_');
        }
        return n.isEmpty() ? b.append(dev).toString() : b.toString();
    }

    /** A log line describing the links behind a device: {@code Gen 3 x2, 40 Gb/s over 0-1}. */
    public static String describe(PeerInfo peer) {
        StringBuilder b = new StringBuilder();
        Map<String, LinkState> seen = new LinkedHashMap<>();
        for (LinkInfo l : peer.links()) {
            if (seen.putIfAbsent(l.id(), l.state()) == null) {
                if (!b.isEmpty()) {
                    b.append("; ");
                }
                b.append(l.state().describe()).append(" over ").append(l.id());
            }
        }
        return b.toString();
    }
}
