package io.xdlink.rails.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AddressFileTest {

    @Test
    void writesEachListenerAsTcpPeerAddressTakesItSortedAndOnlyWhenItChanges(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("rank0.address");
        AddressFile file = new AddressFile(f);
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.ofLiteral("10.0.0.1"), 40001);
        InetSocketAddress v6 = new InetSocketAddress(Inet6Address.getByAddress(null,
                InetAddress.ofLiteral("fe80::1").getAddress(), 3), 40002);
        file.write(List.of(v6, v4));
        assertThat(Files.readString(f)).isEqualTo("10.0.0.1:40001\n[fe80:0:0:0:0:0:0:1%3]:40002\n");
        assertThat(Files.exists(dir.resolve("rank0.address.tmp"))).isFalse();
        Files.writeString(f, "changed by someone else\n");
        file.write(List.of(v4, v6));
        assertThat(Files.readString(f)).as("the same set is not written again").isEqualTo("changed by someone else\n");
        file.write(List.of(v4));
        assertThat(Files.readString(f)).isEqualTo("10.0.0.1:40001\n");
    }

    @Test
    void nothingIsWrittenBeforeAListenerIsBoundAndAFailureNamesTheFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("a");
        new AddressFile(f).write(List.of());
        assertThat(Files.exists(f)).isFalse();
        Path nowhere = dir.resolve("missing-dir").resolve("a");
        assertThatThrownBy(() -> new AddressFile(nowhere).write(List.of(new InetSocketAddress(
                InetAddress.ofLiteral("127.0.0.1"), 1)))).isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot write tcp_address_file " + nowhere);
    }
}
