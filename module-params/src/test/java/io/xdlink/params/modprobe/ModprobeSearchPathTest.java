package io.xdlink.params.modprobe;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ModprobeSearchPathTest {
    private final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    private final Path root = fs.getPath("/");

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private void write(String path, String text) throws IOException {
        Path p = root.resolve(path.substring(1));
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void noDirectoriesMeansNothing() {
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).isEmpty();
        assertThat(scan.problems()).isEmpty();
    }

    @Test
    void sameNameInAHigherDirectoryWinsAndFilesAreReadByName() throws IOException {
        write("/lib/modprobe.d/50-odl.conf", "options odl_tb5 odl_ring_size=4096\n");
        write("/usr/lib/modprobe.d/50-odl.conf", "options odl_tb5 odl_ring_size=2048\n");
        write("/etc/modprobe.d/50-odl.conf", "options odl_tb5 odl_ring_size=1024\n");
        write("/run/modprobe.d/10-early.conf", "blacklist foo\n");
        write("/usr/local/lib/modprobe.d/90-late.conf", "blacklist bar\n");
        write("/lib/modprobe.d/00-first.conf", "blacklist baz\n");

        ModprobeScan scan = ModprobeSearchPath.scan(root);

        assertThat(scan.files()).extracting(ModprobeFile::name).containsExactly(
                "/lib/modprobe.d/00-first.conf",
                "/run/modprobe.d/10-early.conf",
                "/etc/modprobe.d/50-odl.conf",
                "/usr/local/lib/modprobe.d/90-late.conf");
        assertThat(scan.shadowed()).containsExactlyInAnyOrder(
                new ModprobeScan.Shadowed("/usr/lib/modprobe.d/50-odl.conf", "/etc/modprobe.d/50-odl.conf"),
                new ModprobeScan.Shadowed("/lib/modprobe.d/50-odl.conf", "/etc/modprobe.d/50-odl.conf"));
        assertThat(scan.files().get(2).options().getFirst().options().getFirst().value()).isEqualTo("1024");
    }

    @Test
    void runBeatsUsrLocalAndUsrLibBeatsLib() throws IOException {
        write("/usr/local/lib/modprobe.d/a.conf", "blacklist local\n");
        write("/run/modprobe.d/a.conf", "blacklist run\n");
        write("/lib/modprobe.d/b.conf", "blacklist lib\n");
        write("/usr/lib/modprobe.d/b.conf", "blacklist usrlib\n");
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).extracting(f -> f.commands().getFirst().module()).containsExactly("run", "usrlib");
    }

    @Test
    void onlyConfAndAliasFilesAreReadAndHiddenOnesAreNot() throws IOException {
        write("/etc/modprobe.d/a.conf", "blacklist a\n");
        write("/etc/modprobe.d/b.alias", "blacklist b\n");
        write("/etc/modprobe.d/c.conf.bak", "blacklist c\n");
        write("/etc/modprobe.d/.d.conf", "blacklist d\n");
        write("/etc/modprobe.d/README", "blacklist e\n");
        Files.createDirectories(root.resolve("etc/modprobe.d/sub.conf"));
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).extracting(ModprobeFile::name)
                .containsExactly("/etc/modprobe.d/a.conf", "/etc/modprobe.d/b.alias");
        assertThat(scan.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("/etc/modprobe.d/sub.conf");
            assertThat(p.message()).contains("does not read directories");
        });
    }

    @Test
    void aLinkToDevNullMasksAVendorFile() throws IOException {
        write("/usr/lib/modprobe.d/vendor.conf", "options odl_tb5 ring_size=1024\n");
        Files.createDirectories(root.resolve("etc/modprobe.d"));
        Files.createSymbolicLink(root.resolve("etc/modprobe.d/vendor.conf"), fs.getPath("/dev/null"));
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo("/etc/modprobe.d/vendor.conf");
            assertThat(f.commands()).isEmpty();
        });
        assertThat(scan.shadowed()).extracting(ModprobeScan.Shadowed::path)
                .containsExactly("/usr/lib/modprobe.d/vendor.conf");
    }

    @Test
    void aDanglingLinkIsAProblemNotACrash() throws IOException {
        Files.createDirectories(root.resolve("etc/modprobe.d"));
        Files.createSymbolicLink(root.resolve("etc/modprobe.d/gone.conf"), fs.getPath("/nowhere/x.conf"));
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.problems()).singleElement().extracting(ModprobeProblem::file)
                .isEqualTo("/etc/modprobe.d/gone.conf");
    }

    @Test
    void libLinkedToUsrLibHidesNothing() throws IOException {
        write("/usr/lib/modprobe.d/systemd.conf", "options bonding max_bonds=0\n");
        Files.createSymbolicLink(root.resolve("lib"), fs.getPath("/usr/lib"));
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).extracting(ModprobeFile::name).containsExactly("/usr/lib/modprobe.d/systemd.conf");
        assertThat(scan.shadowed()).isEmpty();
    }

    @Test
    void worksUnderANonRootDirectory() throws IOException {
        write("/image/etc/modprobe.d/x.conf", "blacklist x\n");
        ModprobeScan scan = ModprobeSearchPath.scan(root.resolve("image"));
        assertThat(scan.files()).extracting(ModprobeFile::name).containsExactly("/image/etc/modprobe.d/x.conf");
    }

    @Test
    void aHugeFileIsRefusedWithoutReadingItAll() throws IOException {
        Path p = root.resolve("etc/modprobe.d/huge.conf");
        Files.createDirectories(p.getParent());
        Files.write(p, new byte[ModprobeParser.MAX_FILE_BYTES + 10]);
        ModprobeScan scan = ModprobeSearchPath.scan(root);
        assertThat(scan.files()).singleElement().satisfies(f ->
                assertThat(f.problems()).singleElement().extracting(ModprobeProblem::message).asString()
                        .contains("larger than 4 MiB"));
    }
}
