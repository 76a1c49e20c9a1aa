package io.xdlink.cli.doctor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RdmaProvidersCheckTest extends CheckTestBase {
    @Override
    Check check() {
        return new RdmaProvidersCheck();
    }

    @Test
    void fieldFailureRdmav34OnAbi59WithoutDriverFile() {
        fx.libibverbs(59).provider("odl_tb5", 34, 34);

        List<CheckResult> r = run();

        assertThat(r).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("rdma/odl_tb5");
            assertThat(c.status()).isEqualTo(Status.FAIL);
            assertThat(c.summary()).isEqualTo("/usr/lib/libibverbs/libodl_tb5-rdmav34.so is built for provider ABI 34"
                    + " but libibverbs here is IBVERBS_PRIVATE_59, and no file in /etc/libibverbs.d names driver"
                    + " odl_tb5: libibverbs never loads it");
            assertThat(c.fix()).isEqualTo("rebuild it against the installed rdma-core with rdma_provider() (which"
                    + " names it libodl_tb5-rdmav59.so) and install /etc/libibverbs.d/odl_tb5.driver containing the"
                    + " line: driver odl_tb5");
        });
    }

    @Test
    void driverFileButOnlyAnOldAbiBuild() {
        fx.libibverbs(59).provider("odl_tb5", 34, 34).driverFile("odl_tb5");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).isEqualTo("/etc/libibverbs.d/odl_tb5.driver:1 names odl_tb5, but only"
                + " /usr/lib/libibverbs/libodl_tb5-rdmav34.so exists: built for provider ABI 34, while"
                + " /usr/lib/libibverbs.so.1 (IBVERBS_PRIVATE_59) loads only libodl_tb5-rdmav59.so (libibverbs:"
                + " Warning: couldn't load driver 'libodl_tb5-rdmav59.so')");
        assertThat(c.fix()).contains("rdma_provider()").contains("libodl_tb5-rdmav59.so");
    }

    @Test
    void matchingProviderWithDriverFileIsOk() {
        fx.libibverbs(59).provider("mlx5", 59, 59).driverFile("mlx5");

        assertThat(run()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Status.OK);
            assertThat(c.summary()).isEqualTo("/etc/libibverbs.d/mlx5.driver:1 names mlx5;"
                    + " /usr/lib/libibverbs/libmlx5-rdmav59.so matches /usr/lib/libibverbs.so.1 (IBVERBS_PRIVATE_59)");
        });
    }

    @Test
    void rightNameButBuiltAgainstAnotherAbi() {
        fx.libibverbs(59).provider("odl_tb5", 59, 34).driverFile("odl_tb5");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("has the right name but it needs IBVERBS_PRIVATE_34");
    }

    @Test
    void matchingProviderWithoutDriverFile() {
        fx.libibverbs(34).provider("odl_tb5", 34, 34);

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("matches libibverbs's ABI 34, but no file in /etc/libibverbs.d names driver"
                + " odl_tb5");
        assertThat(c.fix()).isEqualTo("install /etc/libibverbs.d/odl_tb5.driver containing the line: driver odl_tb5");
    }

    @Test
    void driverFileWithNoLibraryAtAll() {
        fx.libibverbs(59).file("/etc/libibverbs.d/ghost.driver", "# comment\ndriver ghost\n");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("/etc/libibverbs.d/ghost.driver:2 names ghost, but no libghost-rdmav59.so"
                + " is in /usr/lib/libibverbs or the library path: libibverbs warns \"couldn't load driver\" at every"
                + " start");
    }

    @Test
    void noRdmaCoreIsNothingToCheck() {
        assertThat(run()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Status.OK);
            assertThat(c.summary()).startsWith("rdma-core is not installed");
        });
    }

    @Test
    void providersWithoutLibibverbs() {
        fx.driverFile("mlx5");
        assertThat(run().getFirst().status()).isEqualTo(Status.WARN);
    }

    @Test
    void hostileLibibverbsIsAWarningNotACrash() {
        byte[] junk = io.xdlink.cli.elf.ElfBuilder.x86_64().define(1, 1, "x").build();
        fx.bytes("/usr/lib/libibverbs.so.1", java.util.Arrays.copyOf(junk, 100)).driverFile("mlx5");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.id()).isEqualTo("rdma/libibverbs");
        assertThat(c.summary()).startsWith("cannot read libibverbs: /usr/lib/libibverbs.so.1: ");
    }

    @Test
    void libraryPathFromLdSoConfAndEnvironment() {
        fx.file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
                .file("/etc/ld.so.conf.d/rdma.conf", "/opt/rdma/lib\n")
                .bytes("/opt/rdma/lib/libibverbs.so.1", io.xdlink.cli.elf.ElfBuilder.x86_64().define(1, 1, "l")
                        .define(2, 0, "IBVERBS_PRIVATE_64").build());
        fx.bytes("/opt/rdma/lib/libibverbs/libodl_tb5-rdmav64.so", io.xdlink.cli.elf.ElfBuilder.x86_64().build())
                .driverFile("odl_tb5");

        assertThat(run()).singleElement().extracting(CheckResult::status).isEqualTo(Status.OK);
    }
}
