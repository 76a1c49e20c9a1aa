package io.xdlink.cli.doctor;

import io.xdlink.cli.elf.ElfBuilder;
import io.xdlink.cli.elf.ElfSymbol;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CclPluginsCheckTest extends CheckTestBase {
    static final String[] ALL = {"ncclNetPlugin_v6", "ncclNetPlugin_v7", "ncclNetPlugin_v8", "ncclNetPlugin_v9",
            "ncclNetPlugin_v10", "ncclNetPlugin_v11", "ncclNetPlugin_v12"};

    @Override
    Check check() {
        return new CclPluginsCheck();
    }

    @Test
    void misspelledRcclPrefixFails() {
        fx.collective("librccl.so.1.0.60300", 12, 11, 10, 9, 8, 7, 6).plugin("librccl-net-odl.so", "rcclNetPlugin_v7");

        CheckResult c = run().getFirst();

        assertThat(c.id()).isEqualTo("plugins/librccl-net-odl.so");
        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).isEqualTo("/usr/lib/librccl-net-odl.so exports rcclNetPlugin_v7, which neither NCCL"
                + " nor RCCL looks up (both look up ncclNetPlugin_vN): the plugin is never used");
        assertThat(c.fix()).isEqualTo("rename the tables to ncclNetPlugin_v7");
    }

    @Test
    void onlyOldTablesAgainstAnRcclThatAsksForV12First() {
        fx.collective("librccl.so.1.0.60300", 12, 11, 10, 9, 8, 7, 6)
                .plugin("librccl-net-odl.so", "ncclNetPlugin_v6", "ncclNetPlugin_v7", "ncclNetPlugin_v8");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("/usr/lib/librccl-net-odl.so (on the library path) exports"
                + " ncclNetPlugin_v6..v8; RCCL /usr/lib/librccl.so.1.0.60300 asks for v12 first and falls back to v8"
                + " after logging ncclOsDlsym(ncclNetPlugin_v12) failed for each newer miss; it breaks when the"
                + " library drops v8");
        assertThat(c.fix()).startsWith("export every current table, ncclNetPlugin_v12 down to v6");
    }

    @Test
    void currentTablesAreOk() {
        fx.collective("librccl.so.1", 12, 11, 10, 9, 8, 7, 6).plugin("librccl-net-xdlink.so", ALL);

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.OK);
        assertThat(c.summary()).endsWith("exports ncclNetPlugin_v6..v12; RCCL /usr/lib/librccl.so.1 asks for v12"
                + " first and finds it");
    }

    @Test
    void tablesNoLoaderLooksUpFail() {
        fx.collective("libnccl.so.2", 12, 11, 10, 9, 8, 7, 6).plugin("libnccl-net-old.so", "ncclNetPlugin_v4");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("looks up v12, v11, v10, v9, v8, v7, v6 (the symbol names in its .rodata)"
                + " and finds none of them");
    }

    @Test
    void ncclVersionFromItsFileNameWhenItsNamesAreNotLiterals() {
        fx.bytes("/usr/lib/libnccl.so.2.21.5", ElfBuilder.x86_64().function("ncclCommInitRank", 1).build())
                .plugin("libnccl-net-odl.so", "ncclNetPlugin_v6", "ncclNetPlugin_v7", "ncclNetPlugin_v8");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.OK);
        assertThat(c.summary()).contains("NCCL /usr/lib/libnccl.so.2.21.5 asks for v8 first and finds it");
    }

    @Test
    void noCollectiveLibraryComparesWithTheNewestLoaders() {
        fx.plugin("libnccl-net-odl.so", "ncclNetPlugin_v8");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("/usr/lib/libnccl-net-odl.so (on the library path) exports"
                + " ncclNetPlugin_v8; no NCCL is"
                + " installed here, and the newest loaders ask for v12 first: they would fall back to v8");
    }

    @Test
    void aTableExportedAsAFunctionFails() {
        fx.bytes("/usr/lib/libnccl-net-fn.so", ElfBuilder.x86_64().function("ncclNetPlugin_v12", 1).build());

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("exports ncclNetPlugin_v12 as a function");
    }

    @Test
    void hiddenTablesAreNotExported() {
        fx.bytes("/usr/lib/libnccl-net-hidden.so", ElfBuilder.x86_64()
                .symbol("ncclNetPlugin_v12", ElfSymbol.STT_OBJECT, ElfSymbol.STB_GLOBAL, 2, true, 1, false).build());

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).contains("exports no ncclNetPlugin_vN table");
    }

    @Test
    void ncclNetPluginNamesALibraryByShortName() {
        fx.plugin("libnccl-net-xdlink.so", ALL);
        fx.dir("/opt");
        fx.env.put("NCCL_NET_PLUGIN", "xdlink");

        List<CheckResult> r = run();

        assertThat(r).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Status.OK);
            assertThat(c.summary()).startsWith("/usr/lib/libnccl-net-xdlink.so (on the library path and named by"
                    + " NCCL_NET_PLUGIN) exports ncclNetPlugin_v6..v12");
        });
    }

    @Test
    void ncclNetPluginNamingNothingFails() {
        fx.env.put("NCCL_NET_PLUGIN", "odl");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.summary()).isEqualTo("NCCL_NET_PLUGIN names \"odl\", but neither odl nor libnccl-net-odl.so nor"
                + " librccl-net-odl.so is on the library path: the collective library logs ncclOsDlopen(odl) failed"
                + " and runs on its internal IB/Socket transports");
    }

    @Test
    void ncclNetPluginWithAnAbsolutePathOutsideTheLibraryPath() {
        fx.bytes("/opt/x/plugin.so", ElfBuilder.x86_64().object("ncclNetPlugin_v12").build());
        fx.env.put("NCCL_NET_PLUGIN", "/opt/x/plugin.so");

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.OK);
        assertThat(c.summary()).isEqualTo("/opt/x/plugin.so (named by NCCL_NET_PLUGIN) exports ncclNetPlugin_v12; no"
                + " NCCL or RCCL is installed here, and the newest loaders ask for v12 first");
    }

    @Test
    void noneAndNothing() {
        assertThat(run()).singleElement().extracting(CheckResult::status).isEqualTo(Status.OK);
        fx.env.put("NCCL_NET_PLUGIN", "NONE");
        assertThat(run()).extracting(CheckResult::id).containsExactly("plugins/env", "plugins");
    }

    @Test
    void aTruncatedPluginIsAWarning() {
        byte[] full = ElfBuilder.x86_64().object("ncclNetPlugin_v12").build();
        fx.bytes("/usr/lib/libnccl-net-cut.so", java.util.Arrays.copyOf(full, full.length / 2));

        CheckResult c = run().getFirst();

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).startsWith("/usr/lib/libnccl-net-cut.so (on the library path) cannot be read as a"
                + " shared library: /usr/lib/libnccl-net-cut.so: ");
    }

    @Test
    void misspellingsAreRecognised() {
        assertThat(CclPluginsCheck.looksLikeTable("rcclNetPlugin_v7")).isTrue();
        assertThat(CclPluginsCheck.looksLikeTable("nccl_net_plugin_v8")).isTrue();
        assertThat(CclPluginsCheck.looksLikeTable("NcclNetPlugin_v8")).isTrue();
        assertThat(CclPluginsCheck.looksLikeTable("ncclCollNetPlugin_v8")).isFalse();
        assertThat(CclPluginsCheck.looksLikeTable("ncclTunerPlugin_v3")).isFalse();
        assertThat(CclPluginsCheck.corrected("nccl_net_plugin_v8")).isEqualTo("ncclNetPlugin_v8");
        assertThat(CclPluginsCheck.range(List.of(12, 8, 6))).isEqualTo("v6, v8, v12");
    }
}
