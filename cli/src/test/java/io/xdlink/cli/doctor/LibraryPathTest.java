package io.xdlink.cli.doctor;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;

import static org.assertj.core.api.Assertions.assertThat;

class LibraryPathTest {
    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final HostFixture fx = new HostFixture(fs.getPath("/"));

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    @Test
    void environmentThenConfigurationThenDefaults() {
        fx.file("/etc/ld.so.conf", "# comment\ninclude /etc/ld.so.conf.d/*.conf\n/opt/extra/lib # trailing\n")
                .file("/etc/ld.so.conf.d/10-rocm.conf", "/opt/rocm/lib\n/opt/rocm/lib64\n")
                .file("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/local/lib/x86_64-linux-gnu\n"
                        + "/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")
                .file("/etc/ld.so.conf.d/notes.txt", "/never\n");
        fx.env.put("LD_LIBRARY_PATH", "/home/u/lib::relative:/opt/rocm/lib");

        assertThat(LibraryPath.of(fx.host()).dirs()).containsExactly("/home/u/lib", "/opt/rocm/lib",
                "/opt/rocm/lib64", "/usr/local/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
                "/usr/lib/x86_64-linux-gnu", "/opt/extra/lib", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                "/lib", "/usr/lib", "/lib64", "/usr/lib64");
    }

    @Test
    void withoutAnyConfigurationTheMultiarchDirectoriesComeFirst() {
        assertThat(LibraryPath.of(fx.host()).dirs()).containsExactly("/lib/x86_64-linux-gnu",
                "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib",
                "/usr/lib", "/lib64", "/usr/lib64");
        fx.file("/usr/lib/x86_64-linux-gnu/libibverbs.so.1", "x").file("/usr/lib/libibverbs.so.1", "y");
        assertThat(LibraryPath.of(fx.host()).find("libibverbs.so.1"))
                .contains(fs.getPath("/usr/lib/x86_64-linux-gnu/libibverbs.so.1"));
    }

    @Test
    void includesThatIncludeEachOtherEnd() {
        fx.file("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n")
                .file("/etc/ld.so.conf.d/a.conf", "include /etc/ld.so.conf.d/*.conf\n/a\n")
                .file("/etc/ld.so.conf.d/b.conf", "include /etc/ld.so.conf\n/b\n");

        // Includes are read where they stand, as ldconfig does: a.conf includes b.conf before its own line.
        assertThat(LibraryPath.of(fx.host()).dirs()).startsWith("/b", "/a").endsWith("/lib", "/usr/lib", "/lib64",
                "/usr/lib64");
    }

    @Test
    void findsTheFirstFileAndEachRealFileOnce() {
        fx.file("/usr/lib/libx.so", "one").file("/lib64/libx.so", "two").link("/lib", "usr/lib");

        LibraryPath path = LibraryPath.of(fx.host());

        assertThat(path.find("libx.so")).hasValueSatisfying(p -> assertThat(p.toString()).isEqualTo("/lib/libx.so"));
        assertThat(path.findAll(n -> n.equals("libx.so"))).extracting(Object::toString)
                .containsExactly("/lib/libx.so", "/lib64/libx.so");
        assertThat(path.find("../etc/passwd")).isEmpty();
    }
}
