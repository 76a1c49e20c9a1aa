package io.xdlink.rails.host;

import io.xdlink.params.ParamException;
import io.xdlink.params.Params;
import io.xdlink.rails.tcp.TcpParams;
import io.xdlink.rails.tcp.TcpSettings;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a real host's fabric is set up, resolved from the parameters.
 *
 * @param root              file-system root sysfs is read under
 * @param controlPort       session listener port on each link's interface, 0 for a free one
 * @param railPort          rail listener port on each link's interface, 0 for a free one
 * @param peerAddresses     session listeners to dial, in order (empty: the other end of each point-to-point link)
 * @param interfaceOverride link id to interface name or address, replacing the link's thunderbolt-net interface
 * @param tcp               socket, keepalive and timeout settings
 * @param addressFile       where to write the session listeners' addresses once bound, or null
 */
public record HostFabricConfig(Path root, int controlPort, int railPort, List<InetSocketAddress> peerAddresses,
                               Map<String, String> interfaceOverride, TcpSettings tcp, Path addressFile) {
    public HostFabricConfig {
        peerAddresses = List.copyOf(peerAddresses);
        interfaceOverride = Map.copyOf(interfaceOverride);
    }

    /** Without an address file. */
    public HostFabricConfig(Path root, int controlPort, int railPort, List<InetSocketAddress> peerAddresses,
                            Map<String, String> interfaceOverride, TcpSettings tcp) {
        this(root, controlPort, railPort, peerAddresses, interfaceOverride, tcp, null);
    }

    /**
     * Reads the configuration from the parameters.
     *
     * @throws ParamException naming the parameter and entry when a peer address or interface override is malformed
     */
    public static HostFabricConfig from(Params params) {
        List<InetSocketAddress> peers = new ArrayList<>();
        for (String entry : params.get(TcpParams.PEER_ADDRESSES)) {
            peers.add(hostPort(entry, params));
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        for (String entry : params.get(TcpParams.RAIL_INTERFACES)) {
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new ParamException(params.origin(TcpParams.RAIL_INTERFACES) + ": bad entry '" + entry + "' in "
                        + TcpParams.RAIL_INTERFACES.name() + ": use link=interface or link=address, e.g. 0-1=thunderbolt0");
            }
            overrides.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
        }
        return new HostFabricConfig(Path.of(params.get(TcpParams.HOST_ROOT)),
                Math.toIntExact(params.get(TcpParams.CONTROL_PORT)), Math.toIntExact(params.get(TcpParams.RAIL_PORT)),
                peers, overrides, TcpSettings.from(params),
                params.get(TcpParams.ADDRESS_FILE).isBlank() ? null : Path.of(params.get(TcpParams.ADDRESS_FILE)));
    }

    /** {@code 10.0.0.2:18520}, {@code [fe80::1%thunderbolt0]:18520}; addresses only, never a name to look up. */
    static InetSocketAddress hostPort(String entry, Params params) {
        String e = entry.trim();
        String where = params.origin(TcpParams.PEER_ADDRESSES) + ": bad entry '" + e + "' in "
                + TcpParams.PEER_ADDRESSES.name() + ": ";
        int colon = e.lastIndexOf(':');
        if (colon <= 0) {
            throw new ParamException(where + "use address:port, e.g. 10.0.0.2:18520 or [fe80::2%thunderbolt0]:18520");
        }
        String host = e.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new ParamException(where + "write an IPv6 address in brackets, e.g. [fd00::2]:18520");
        }
        InetAddress address = LocalAddress.literal(host);
        if (address == null) {
            throw new ParamException(where + "'" + host + "' is not an IP address");
        }
        int port;
        try {
            port = Integer.parseInt(e.substring(colon + 1));
        } catch (NumberFormatException nfe) {
            throw new ParamException(where + "the port is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new ParamException(where + "port " + port + " is outside 1..65535");
        }
        return new InetSocketAddress(address, port);
    }
}
