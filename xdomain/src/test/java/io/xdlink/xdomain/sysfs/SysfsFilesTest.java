package io.xdlink.xdomain.sysfs;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SysfsFilesTest {
    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final Path dir = fs.getPath("/d");

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    @Test
    void readsOnePageAndStripsOneNewline() throws Exception {
        Path f = dir.resolve("a");
        SysfsFixture.writeRaw(f, "x".repeat(4095) + "\n");
        assertThat(SysfsFiles.read(f)).hasSize(4095);
        SysfsFixture.writeRaw(f, "two\n\n");
        assertThat(SysfsFiles.read(f)).isEqualTo("two\n");
    }

    @Test
    void refusesMoreThanOnePage() {
        Path f = dir.resolve("big");
        SysfsFixture.writeRaw(f, "y".repeat(1 << 20));
        assertThatThrownBy(() -> SysfsFiles.read(f)).isInstanceOf(SysfsException.class)
                .hasMessage("/d/big: longer than 4096 bytes, not a sysfs attribute");
    }

    @Test
    void missingAndDirectoriesAreNamed() throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        assertThatThrownBy(() -> SysfsFiles.read(dir.resolve("none"))).hasMessage("/d/none: missing");
        assertThatThrownBy(() -> SysfsFiles.read(dir.resolve("sub"))).hasMessage("/d/sub: not a regular file");
        assertThatThrownBy(() -> SysfsFiles.list(dir.resolve("none"), 10)).hasMessage("/d/none: missing");
    }

    @Test
    void malformedUtf8IsReplacedNotFatal() throws Exception {
        Path f = dir.resolve("bin");
        Files.createDirectories(dir);
        Files.write(f, new byte[] {'a', (byte) 0xff, (byte) 0xc3, 'b', 0, '\n'});
        assertThat(Attributes.text(f)).isEqualTo("a\ufffd\ufffdb\\x00");
    }

    @Test
    void listingStopsAtTheLimit() throws IOException {
        for (int i = 0; i < 11; i++) {
            Files.createDirectories(dir.resolve("e" + i));
        }
        assertThatThrownBy(() -> SysfsFiles.list(dir, 10)).hasMessage("/d: more than 10 entries");
    }

    @Test
    void linkLoopsAndNonLinks() throws IOException {
        Files.createDirectories(dir);
        Files.createSymbolicLink(dir.resolve("a"), fs.getPath("b"));
        Files.createSymbolicLink(dir.resolve("b"), fs.getPath("a"));
        assertThatThrownBy(() -> SysfsFiles.realPath(dir.resolve("a"))).hasMessageStartingWith("/d/a: cannot resolve");
        assertThatThrownBy(() -> SysfsFiles.read(dir.resolve("a"))).hasMessageStartingWith("/d/a:");
        Files.createDirectories(dir.resolve("driver"));
        assertThatThrownBy(() -> SysfsFiles.linkTargetName(dir.resolve("driver")))
                .hasMessage("/d/driver: not a symbolic link");
    }
}
