package io.xdlink.params.files;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

public class BoundedFileTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());

    @Test
    void aSmallRegularFileIsRead() throws IOException {
        Path f = Files.writeString(fs.getPath("/a.conf"), "options xdlink ring_size=1024\n");
        assertThat(BoundedFile.text(f, 64)).isEqualTo("options xdlink ring_size=1024\n");
        assertThat(BoundedFile.read(Files.write(fs.getPath("/empty"), new byte[0]), 0)).isEmpty();
    }

    @Test
    void aFileOfExactlyTheLimitIsReadAndOneByteMoreIsNot() throws IOException {
        Path f = Files.write(fs.getPath("/f"), new byte[100]);
        assertThat(BoundedFile.read(f, 100)).hasSize(100);
        assertThatThrownBy(() -> BoundedFile.read(f, 99)).isInstanceOf(BoundedFile.TooLarge.class)
                .hasMessage("larger than 99 bytes, so it is not read");
        Path big = Files.write(fs.getPath("/big"), new byte[3 << 20]);
        assertThatThrownBy(() -> BoundedFile.read(big, 1 << 20)).hasMessage("larger than 1 MiB, so it is not read");
    }

    @Test
    void aDirectoryAndAMissingFileAreRefused() throws IOException {
        Path d = Files.createDirectory(fs.getPath("/d"));
        assertThatThrownBy(() -> BoundedFile.read(d, 10)).isInstanceOf(BoundedFile.Refused.class)
                .hasMessage("a directory, not a file");
        assertThatThrownBy(() -> BoundedFile.read(fs.getPath("/none"), 10)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aLinkToARegularFileIsFollowed() throws IOException {
        Path f = Files.writeString(fs.getPath("/real"), "x");
        Path link = Files.createSymbolicLink(fs.getPath("/link"), f);
        assertThat(BoundedFile.text(link, 10)).isEqualTo("x");
    }

    @Test
    void aDeviceThatNeverEndsIsRefusedBeforeItIsRead() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero), "no /dev/zero on this system");
        assertThatThrownBy(() -> BoundedFile.read(zero, 1 << 20)).isInstanceOf(BoundedFile.Refused.class)
                .hasMessageStartingWith("not a regular file (a FIFO, socket or device)");
    }

    @Test
    void aFifoIsRefusedWithoutBlocking(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("pipe"));
        assertThatThrownBy(() -> BoundedFile.read(fifo, 1 << 20)).isInstanceOf(BoundedFile.Refused.class)
                .hasMessageContaining("FIFO");
        Path link = Files.createSymbolicLink(dir.resolve("link"), fifo);
        assertThatThrownBy(() -> BoundedFile.text(link, 1 << 20)).isInstanceOf(BoundedFile.Refused.class);
    }

    @Test
    void limitsAreWrittenInTheirLargestWholeUnit() {
        assertThat(BoundedFile.describe(16L << 20)).isEqualTo("16 MiB");
        assertThat(BoundedFile.describe(64 << 10)).isEqualTo("64 KiB");
        assertThat(BoundedFile.describe(1000)).isEqualTo("1000 bytes");
    }

    /** A FIFO made by mkfifo(1) in a real directory; the test is skipped only where mkfifo is missing. */
    public static Path mkfifo(Path p) throws Exception {
        Process proc;
        try {
            proc = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not installed: " + e.getMessage());
            throw e;
        }
        assertThat(proc.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(proc.exitValue()).as(new String(proc.getInputStream().readAllBytes())).isZero();
        return p;
    }
}
