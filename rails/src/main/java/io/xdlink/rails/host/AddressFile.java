package io.xdlink.rails.host;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code tcp_address_file}: where a host tells a launcher the addresses its session listeners got, one
 * {@code address:port} a line ({@code [v6]:port} for IPv6), so ranks can start with {@code tcp_control_port=0} and
 * the launcher hands the port to the peer as {@code tcp_peer_address}. The file is written beside its place and
 * renamed over it, so a reader polling for it never sees half of it; it is rewritten only when the set changes.
 */
final class AddressFile {
    private final Path file;
    private String written;

    AddressFile(Path file) {
        this.file = file;
    }

    /**
     * Writes {@code listeners} if they differ from what the file holds.
     *
     * @throws IOException naming the file when it cannot be written
     */
    void write(List<InetSocketAddress> listeners) throws IOException {
        if (listeners.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        listeners.stream().map(AddressFile::line).sorted().forEach(l -> text.append(l).append('\n'));
        if (text.toString().equals(written)) {
            return;
        }
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            throw new IOException("cannot write tcp_address_file " + file + ": " + e.getMessage(), e);
        }
        written = text.toString();
    }

    static String line(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (a.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
