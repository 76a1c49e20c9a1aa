package io.xdlink.cli.doctor;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.xdlink.cli.host.CliRun;
import io.xdlink.xdomain.sysfs.SysfsFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DoctorCommandTest {
    static final UUID HOST = UUID.fromString("a1b2c3d4-0000-4000-8000-000000000001");
    static final UUID EVO = UUID.fromString("5e0c9f7a-8c1b-4e7e-9d2a-3f4b5c6d7e8f");

    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    CliRun doctor(HostFixture fx, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--root";
        all[1] = fx.root.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return CliRun.of(new DoctorCommand(fs::getPath, fx.env, DoctorChecks.all()), all);
    }

    /** A host where everything is as it should be. */
    static HostFixture clean(HostFixture fx) {
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 1, "evo-x3").link(20, 2).network("thunderbolt0")
                .service(1, "xdlink", 0x58444c4b, 1, 0, 1, null, null);
        fx.libibverbs(59).provider("mlx5", 59, 59).driverFile("mlx5")
                .collective("libnccl.so.2", 12, 11, 10, 9, 8, 7, 6)
                .plugin("libnccl-net-xdlink.so", CclPluginsCheckTest.ALL)
                .file("/sys/module/pcie_aspm/parameters/policy", "default [performance] powersave powersupersave\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state0/name", "POLL\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state0/latency", "0\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C6\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state1/latency", "133\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state1/disable", "1\n")
                .file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 odl_ring_size=1024\n")
                .file("/sys/module/odl_tb5/parameters/odl_ring_size", "1024\n")
                .file("/proc/meminfo", "CmaTotal:          65536 kB\nCmaFree:           65536 kB\n")
                .file("/sys/kernel/iommu_groups/0/type", "DMA-FQ\n");
        return fx;
    }

    @Test
    void aCleanHostIsAllOk() {
        HostFixture fx = clean(new HostFixture(fs.getPath("/clean")));

        CliRun r = doctor(fx);

        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().filter(l -> !l.startsWith("ok ")).toList())
                .containsExactly("12 ok, 0 warn, 0 fail");
    }

    @Test
    void theFieldFailuresTogether() {
        HostFixture fx = new HostFixture(fs.getPath("/field"));
        SysfsFixture.create(fx.root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 1, "evo-x3").link(20, 1).network("thunderbolt0");
        fx.libibverbs(59).provider("odl_tb5", 34, 34)
                .collective("librccl.so.1.0.60300", 12, 11, 10, 9, 8, 7, 6)
                .plugin("librccl-net-odl.so", "rcclNetPlugin_v7")
                .file("/sys/module/pcie_aspm/parameters/policy", "default performance [powersave] powersupersave\n")
                .file("/etc/modprobe.d/odl_tb5.conf", "options odl_tb5 ring_size=1024\n")
                .file("/sys/module/odl_tb5/parameters/odl_ring_size", "4096\n")
                .file("/proc/meminfo", "CmaTotal:              0 kB\nCmaFree:               0 kB\n")
                .file("/proc/cmdline", "ro quiet iommu=pt\n")
                .file("/sys/kernel/iommu_groups/0/type", "identity\n");

        CliRun r = doctor(fx);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("warn  links/0-1/link: 0-1 evo-x3: Gen 3, 1 x 20 Gb/s each way = 20 Gb/s, single"
                + " lane; Gen 3 link running single lane");
        assertThat(r.out()).contains("fail  rdma/odl_tb5: /usr/lib/libibverbs/libodl_tb5-rdmav34.so is built for"
                + " provider ABI 34");
        assertThat(r.out()).contains("fail  plugins/librccl-net-odl.so: /usr/lib/librccl-net-odl.so exports"
                + " rcclNetPlugin_v7");
        assertThat(r.out()).contains("warn  power/aspm: PCIe ASPM policy is powersave");
        assertThat(r.out()).contains(" -- fix: rename the tables to ncclNetPlugin_v7\n");
        assertThat(r.out()).contains("fail  params/etc/modprobe.d/odl_tb5.conf:1: /etc/modprobe.d/odl_tb5.conf:1: ");
        assertThat(r.out()).contains("fail  dma/odl_tb5: odl_tb5 rings of 4096 frames (odl_ring_size=4096 in the"
                + " loaded module): 16 MiB does not fit");
        assertThat(r.out()).contains("warn  dma/xdlink: DMA ring: ring_size=4096 frames needs 16 MiB");
        assertThat(r.out()).endsWith("6 ok, 3 warn, 4 fail\n");
    }

    @Test
    void aBadParamsVariableIsAFailureNotASilentDefault() {
        HostFixture fx = clean(new HostFixture(fs.getPath("/clean")));
        fx.env.put("XDLINK_PARAMS", "ring_size=1024 bogus=1");

        CliRun r = doctor(fx);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("fail  params/xdlink: $XDLINK_PARAMS: unknown parameter 'bogus'; no parameter"
                + " has a name like it: 'xdlink params' lists them all -- fix: correct /etc/xdlink/xdlink.conf or"
                + " $XDLINK_PARAMS; xdlink refuses to start with it as it is\n");
        assertThat(r.out()).contains("the configuration does not load").doesNotContain("ring_size=4096 (");
        assertThat(r.out()).endsWith(" 1 fail\n");
    }

    @Test
    void aGoodParamsVariableIsWhatTheRingCheckUses() {
        HostFixture fx = clean(new HostFixture(fs.getPath("/clean")));
        fx.env.put("XDLINK_PARAMS", "ring_size=1024");

        CliRun r = doctor(fx);

        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("ring_size=1024 ($XDLINK_PARAMS)");
    }

    @Test
    void theConfigFileTheVariableNamesIsReadUnderTheRootAndABadOneFails() {
        HostFixture fx = clean(new HostFixture(fs.getPath("/clean")));
        fx.file("/srv/xd.conf", "options xdlink ring_sise=1024\n");
        fx.env.put("XDLINK_CONFIG", "/srv/xd.conf");
        CliRun r = doctor(fx);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("fail  params/xdlink: /srv/xd.conf:1: unknown parameter 'ring_sise'; did you"
                + " mean 'ring_size'?");

        fx.env.put("XDLINK_CONFIG", "/srv/missing.conf");
        assertThat(doctor(fx).out()).contains("fail  params/xdlink: /srv/missing.conf: configuration file not found"
                + " (named by $XDLINK_CONFIG)");

        fx.env.put("XDLINK_CONFIG", "/srv");
        assertThat(doctor(fx).out()).contains("fail  params/xdlink: /srv: cannot read the configuration file: a"
                + " directory, not a file");

        fx.env.put("XDLINK_CONFIG", "");
        assertThat(doctor(fx).exit()).isZero();
    }

    @Test
    void aConfigFileThatIsAFifoFailsWithoutBlocking(@TempDir Path tmp) throws Exception {
        HostFixture fx = clean(new HostFixture(tmp));
        Files.createDirectories(fx.path("/etc/xdlink"));
        io.xdlink.cli.bench.BenchFilesTestAccess.mkfifo(fx.path("/etc/xdlink/xdlink.conf"));

        CliRun r = CliRun.of(new DoctorCommand(Path::of, fx.env, DoctorChecks.all()), "--root", tmp.toString());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("fail  params/xdlink: /etc/xdlink/xdlink.conf: cannot read the configuration"
                + " file: not a regular file (a FIFO, socket or device)");
    }

    @Test
    void aModprobeFileThatCannotBeReadIsAWarningNamingItNeverOk(@TempDir Path tmp) throws Exception {
        HostFixture fx = clean(new HostFixture(tmp));
        Files.createDirectories(fx.path("/etc/modprobe.d/dir.conf"));
        io.xdlink.cli.bench.BenchFilesTestAccess.mkfifo(fx.path("/etc/modprobe.d/pipe.conf"));
        Files.createSymbolicLink(fx.path("/etc/modprobe.d/gone.conf"), tmp.resolve("nowhere.conf"));

        CliRun r = CliRun.of(new DoctorCommand(Path::of, fx.env, DoctorChecks.all()), "--root", tmp.toString());

        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("warn  params/etc/modprobe.d/gone.conf: /etc/modprobe.d/gone.conf: not a regular"
                + " file;");
        assertThat(r.out()).contains("warn  params/etc/modprobe.d/pipe.conf: /etc/modprobe.d/pipe.conf: not a regular"
                + " file; modprobe skips what it cannot read, so no option in it takes effect, and doctor could not"
                + " check it -- fix: make /etc/modprobe.d/pipe.conf a regular file modprobe can read (chmod 644), or"
                + " remove it\n");
        assertThat(r.out()).contains("warn  params/etc/modprobe.d/dir.conf: /etc/modprobe.d/dir.conf: a directory;");
        assertThat(r.out()).doesNotContain("ok    params:");

        // A relative --root names the files as the host does too.
        Path cwd = Path.of("").toAbsolutePath();
        assumeTrue(tmp.startsWith(cwd.getRoot()));
        CliRun relative = CliRun.of(new DoctorCommand(Path::of, fx.env, DoctorChecks.all()), "--root",
                cwd.relativize(tmp).toString());
        assertThat(relative.out()).contains("warn  params/etc/modprobe.d/pipe.conf: /etc/modprobe.d/pipe.conf: not a");
    }

    @Test
    void aModprobeFileWithoutReadPermissionIsAWarning(@TempDir Path tmp) throws Exception {
        HostFixture fx = clean(new HostFixture(tmp));
        Path locked = fx.path("/etc/modprobe.d/locked.conf");
        Files.writeString(locked, "options odl_tb5 odl_ring_size=1024\n");
        Files.setPosixFilePermissions(locked, java.util.Set.of());
        assumeTrue(!Files.isReadable(locked), "this user reads any file (root)");

        CliRun r = CliRun.of(new DoctorCommand(Path::of, fx.env, DoctorChecks.all()), "--root", tmp.toString());

        assertThat(r.out()).contains("warn  params/etc/modprobe.d/locked.conf: /etc/modprobe.d/locked.conf: cannot"
                + " read: AccessDenied");
    }

    /**
     * Ubuntu's layout: libibverbs, its providers and the plugins under /usr/lib/x86_64-linux-gnu, and no
     * ld.so.conf at all; the loader searches the multiarch directory anyway, and so must doctor.
     */
    @Test
    void anUbuntuLayoutHostWithoutLdSoConfIsSearchedLikeTheLoaderDoes() {
        HostFixture fx = new HostFixture(fs.getPath("/ubuntu")).libDir("/usr/lib/x86_64-linux-gnu");
        fx.libibverbs(59).provider("odl_tb5", 34, 34).provider("mlx5", 59, 59).driverFile("mlx5")
                .collective("librccl.so.1.0.60300", 12, 11, 10, 9, 8, 7, 6)
                .plugin("librccl-net-old.so", "ncclNetPlugin_v6", "ncclNetPlugin_v7", "ncclNetPlugin_v8");
        assertThat(fx.path("/etc/ld.so.conf")).doesNotExist();

        CliRun r = doctor(fx);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("fail  rdma/odl_tb5: /usr/lib/x86_64-linux-gnu/libibverbs/libodl_tb5-rdmav34.so"
                + " is built for provider ABI 34 but libibverbs here is IBVERBS_PRIVATE_59");
        assertThat(r.out()).contains("warn  plugins/librccl-net-old.so: /usr/lib/x86_64-linux-gnu/librccl-net-old.so"
                + " (on the library path) exports ncclNetPlugin_v6..v8; RCCL"
                + " /usr/lib/x86_64-linux-gnu/librccl.so.1.0.60300 asks for v12 first and falls back to v8");
        assertThat(r.out()).doesNotContain("rdma-core is not installed").doesNotContain("no libnccl-net-*.so");
    }

    @Test
    void anArm64LayoutHostIsSearchedToo() {
        HostFixture fx = new HostFixture(fs.getPath("/arm")).libDir("/lib/aarch64-linux-gnu");
        fx.libibverbs(59).provider("odl_tb5", 34, 34);

        CliRun r = doctor(fx);

        assertThat(r.out()).contains("fail  rdma/odl_tb5: /lib/aarch64-linux-gnu/libibverbs/libodl_tb5-rdmav34.so");
    }

    @Test
    void jsonIsAnArrayOfIdStatusSummaryFix() {
        HostFixture fx = clean(new HostFixture(fs.getPath("/clean")));
        fx.file("/sys/module/pcie_aspm/parameters/policy", "default performance [powersave] powersupersave\n");

        CliRun r = doctor(fx, "--json");

        assertThat(r.exit()).isZero();
        String compact = r.out().replaceAll("\n *", "");
        assertThat(compact).startsWith("[{\"id\": \"links/0-1/link\",\"status\": \"ok\",\"summary\": \"0-1 evo-x3:"
                + " Gen 3, 2 x 20 Gb/s each way = 40 Gb/s, bonded\",\"fix\": \"\"},");
        assertThat(compact).contains("{\"id\": \"power/aspm\",\"status\": \"warn\",\"summary\": \"PCIe ASPM policy is"
                + " powersave: links sleep between packets;");
        assertThat(compact).endsWith("}]");
        assertThat(r.out().lines().filter(l -> l.trim().startsWith("\"id\"")).count()).isEqualTo(12);
    }

    @Test
    void aCheckThatThrowsCannotHideTheOthers() {
        Check broken = new Check() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public List<CheckResult> run(Host host) {
                throw new IllegalStateException("boom");
            }
        };
        List<CheckResult> r = DoctorCommand.run(new Host(fs.getPath("/"), Map.of()), List.of(broken, new PowerCheck()));

        assertThat(r.getFirst()).isEqualTo(CheckResult.warn("broken", "this check stopped early:"
                + " java.lang.IllegalStateException: boom", "report it with the output of xdlink doctor --json"));
        assertThat(r).hasSizeGreaterThan(1);
    }

    @Test
    void thisMachineRunsWithoutError() {
        CliRun r = CliRun.main("doctor");
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("links: ").endsWith(" fail\n");
        if (!Files.isDirectory(Path.of("/sys/bus/thunderbolt"))) {
            assertThat(r.out()).contains("warn  links: no USB4 hardware: /sys/bus/thunderbolt does not exist");
        }
    }

    @Test
    void aMissingRootIsAUsageError() {
        CliRun r = CliRun.main("doctor", "--root", "/does/not/exist");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("xdlink: --root /does/not/exist: no such directory\n");
    }

    /**
     * End to end on real directories: real shared objects built with gcc (a libibverbs stub whose version script
     * defines IBVERBS_PRIVATE_59, a provider linked against a PABI-34 stub, plugins exporting chosen tables, an RCCL
     * stub naming the tables its loader tries), a kernel-shaped /sys, run through the command line.
     */
    @Test
    void endToEndWithLibrariesBuiltByGcc(@TempDir Path tmp) throws Exception {
        assumeTrue(Gcc.available(), "gcc is needed to build the test's shared objects");
        Path root = tmp.resolve("root");
        Path build = tmp.resolve("build");
        Files.createDirectories(build);
        Gcc.sharedLibrary(build, "verbs59", "int ibv_get_device_list(void){return 0;}\n"
                        + "int verbs_register_driver_59(void){return 59;}\n",
                "IBVERBS_1.1 { global: ibv_get_device_list; local: *; };\n"
                        + "IBVERBS_PRIVATE_59 { global: verbs_register_driver_59; };\n",
                "libibverbs.so.1", root.resolve("usr/lib/libibverbs.so.1"));
        Path verbs34 = build.resolve("v34/libibverbs.so.1");
        Gcc.sharedLibrary(build, "verbs34", "int verbs_register_driver_34(void){return 34;}\n",
                "IBVERBS_PRIVATE_34 { global: verbs_register_driver_34; local: *; };\n", "libibverbs.so.1", verbs34);
        Files.createDirectories(root.resolve("usr/lib/libibverbs"));
        Gcc.run(build, "gcc", "-shared", "-fPIC", "-o",
                root.resolve("usr/lib/libibverbs/libodl_tb5-rdmav34.so").toString(),
                Gcc.source(build, "prov", "extern int verbs_register_driver_34(void);\n"
                        + "int odl_probe(void){return verbs_register_driver_34();}\n").toString(),
                "-L" + verbs34.getParent(), "-l:libibverbs.so.1");
        Gcc.sharedLibrary(build, "rccl", "const char *const rccl_net_names[] = {\"ncclNetPlugin_v12\","
                + " \"ncclNetPlugin_v11\", \"ncclNetPlugin_v10\", \"ncclNetPlugin_v9\", \"ncclNetPlugin_v8\","
                + " \"ncclNetPlugin_v7\", \"ncclNetPlugin_v6\"};\n", null, null,
                root.resolve("usr/lib/librccl.so.1.0.60300"));
        Gcc.sharedLibrary(build, "misspelled", "struct t { void *slot[19]; };\n"
                + "const struct t rcclNetPlugin_v7 = {{0}};\n", null, null, root.resolve("usr/lib/librccl-net-odl.so"));
        Gcc.sharedLibrary(build, "old", "struct t { void *slot[19]; };\n"
                + "const struct t ncclNetPlugin_v6 = {{0}}, ncclNetPlugin_v7 = {{0}}, ncclNetPlugin_v8 = {{0}};\n",
                null, null, root.resolve("usr/lib/librccl-net-old.so"));
        SysfsFixture.create(root).domain(0, "0000:00:0d.2", HOST)
                .peer(0, "1", EVO).names(0x8086, "Intel Corp.", 1, "evo-x3").link(20, 1).network("thunderbolt0");
        HostFixture fx = new HostFixture(root);
        fx.file("/sys/module/pcie_aspm/parameters/policy", "default performance [powersave] powersupersave\n");

        CliRun r = CliRun.main("doctor", "--root", root.toString());

        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("fail  rdma/odl_tb5: /usr/lib/libibverbs/libodl_tb5-rdmav34.so is built for"
                + " provider ABI 34 but libibverbs here is IBVERBS_PRIVATE_59, and no file in /etc/libibverbs.d names"
                + " driver odl_tb5: libibverbs never loads it");
        assertThat(r.out()).contains("fail  plugins/librccl-net-odl.so: /usr/lib/librccl-net-odl.so exports"
                + " rcclNetPlugin_v7, which neither NCCL nor RCCL looks up");
        assertThat(r.out()).contains("warn  plugins/librccl-net-old.so: /usr/lib/librccl-net-old.so (on the library"
                + " path) exports ncclNetPlugin_v6..v8; RCCL /usr/lib/librccl.so.1.0.60300 asks for v12 first and falls"
                + " back to v8");
        assertThat(r.out()).contains("warn  links/0-1/link: 0-1 evo-x3: Gen 3, 1 x 20 Gb/s each way = 20 Gb/s");
        assertThat(r.out()).contains("warn  power/aspm: PCIe ASPM policy is powersave");

        CliRun json = CliRun.main("doctor", "--root", root.toString(), "--json");
        assertThat(json.exit()).isEqualTo(1);
        assertThat(json.out()).startsWith("[\n  {\n    \"id\": ").contains("\"status\": \"fail\"");
    }
}
