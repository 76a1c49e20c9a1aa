package io.xdlink.cli.doctor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ModuleParamsCheckTest extends CheckTestBase {
    @Override
    Check check() {
        return new ModuleParamsCheck();
    }

    HostFixture loadedOdl(String ringSize) {
        return fx.file("/sys/module/odl_tb5/parameters/odl_ring_size", ringSize + "\n")
                .file("/sys/module/odl_tb5/parameters/loopback", "0\n");
    }

    @Test
    void fieldFailureRingSizeOnOdlTb5() {
        fx.file("/etc/modprobe.d/odl_tb5.conf", "# from the README\noptions odl_tb5 ring_size=1024\n");
        loadedOdl("4096");

        List<CheckResult> r = run();

        CheckResult c = r.getFirst();
        assertThat(c.id()).isEqualTo("params/etc/modprobe.d/odl_tb5.conf:2");
        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).startsWith("/etc/modprobe.d/odl_tb5.conf:2: ").contains("ring_size")
                .contains("odl_ring_size").endsWith("(the loaded odl_tb5 has odl_ring_size=4096)");
        assertThat(c.fix()).contains("odl_ring_size");
        assertThat(r.getLast()).isEqualTo(CheckResult.ok("params/odl_tb5", "odl_tb5 is loaded: loopback=0,"
                + " odl_ring_size=4096"));
    }

    @Test
    void optionsTheLoadedModuleDoesNotHaveWarn() {
        fx.file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 odl_ring_size=1024 loopback=1\n");
        loadedOdl("4096");

        assertThat(run()).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Status.WARN);
            assertThat(c.summary()).isEqualTo("odl_tb5 is loaded with values modprobe.d does not give:"
                    + " odl_ring_size=1024 at /etc/modprobe.d/odl_tb5.conf:1 but the loaded module has 4096;"
                    + " loopback=1 at /etc/modprobe.d/odl_tb5.conf:1 but the loaded module has 0");
            assertThat(c.fix()).isEqualTo("reload it so the options apply: sudo modprobe -r odl_tb5 && sudo modprobe"
                    + " odl_tb5");
        });
    }

    @Test
    void cleanLinesAndMatchingValuesAreOk() {
        fx.file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 odl_ring_size=1024\n")
                .file("/etc/modprobe.d/tbnet.conf", "options thunderbolt_net e2e=0\n")
                .file("/sys/module/thunderbolt_net/parameters/e2e", "N\n")
                .file("/etc/modprobe.d/sound.conf", "options snd_hda_intel power_save=0 bogus=1\n");
        loadedOdl("1024");

        assertThat(run()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Status.OK))
                .extracting(CheckResult::id).containsExactly("params/odl_tb5", "params/thunderbolt_net");
    }

    @Test
    void nothingConfigured() {
        fx.file("/etc/modprobe.d/sound.conf", "options snd_hda_intel power_save=0\n");
        assertThat(run()).singleElement().isEqualTo(CheckResult.ok("params", "no options lines for xdlink, odl_tb5,"
                + " thunderbolt_ibverbs, thunderbolt_net, thunderbolt in 1 modprobe.d file"));
    }

    @Test
    void removedParameterAndXdlinkInModprobeD() {
        fx.file("/usr/lib/modprobe.d/tbv.conf", "options thunderbolt_ibverbs native_wr_striping=1\n")
                .file("/etc/modprobe.d/xdlink.conf", "options xdlink ring_size=1024\n");

        List<CheckResult> r = run();

        assertThat(r).extracting(CheckResult::status).containsExactlyInAnyOrder(Status.FAIL, Status.WARN);
        assertThat(r).anySatisfy(c -> assertThat(c.summary()).startsWith("/usr/lib/modprobe.d/tbv.conf:1: ")
                .contains("native_wr_striping"));
        assertThat(r).anySatisfy(c -> assertThat(c.summary()).isEqualTo("/etc/modprobe.d/xdlink.conf:1: xdlink does"
                + " not read modprobe.d, so this line has no effect"));
    }

    @Test
    void xdlinkConfigurationErrorsFail() {
        fx.file("/etc/xdlink/xdlink.conf", "options xdlink ring_sise=1024\n");

        CheckResult c = run().getFirst();

        assertThat(c.id()).isEqualTo("params/xdlink");
        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("ring_sise").contains("ring_size");
    }

    @Test
    void boolsCompareAsTheKernelShowsThem() {
        assertThat(ModuleParamsCheck.same("1", "Y")).isTrue();
        assertThat(ModuleParamsCheck.same("off", "N")).isTrue();
        assertThat(ModuleParamsCheck.same("0", "Y")).isFalse();
        assertThat(ModuleParamsCheck.same("1024", "1024")).isTrue();
        assertThat(ModuleParamsCheck.same("1024", "4096")).isFalse();
    }
}
