package io.xdlink.cli.doctor;

import io.xdlink.cli.elf.ElfBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Builds a host's files under a root (in Jimfs or a temporary directory) for the doctor's checks. */
final class HostFixture {
    final Path root;
    final Map<String, String> env = new HashMap<>();
    /** Where the library helpers put libraries: /usr/lib, or a multiarch directory for a Debian-layout host. */
    String libDir = "/usr/lib";

    HostFixture(Path root) {
        this.root = root;
    }

    Host host() {
        return new Host(root, env);
    }

    Path path(String absolute) {
        return root.resolve(absolute.substring(1));
    }

    HostFixture file(String absolute, String content) {
        return bytes(absolute, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    HostFixture bytes(String absolute, byte[] content) {
        try {
            Path p = path(absolute);
            Files.createDirectories(p.getParent());
            Files.write(p, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    HostFixture link(String absolute, String target) {
        try {
            Path p = path(absolute);
            Files.createDirectories(p.getParent());
            Files.createSymbolicLink(p, p.getFileSystem().getPath(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    HostFixture dir(String absolute) {
        try {
            Files.createDirectories(path(absolute));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Libraries go into {@code dir} from now on. */
    HostFixture libDir(String dir) {
        this.libDir = dir;
        return this;
    }

    /** libibverbs.so.1 defining IBVERBS_PRIVATE_{abi}, at {libDir}/libibverbs.so.1. */
    HostFixture libibverbs(int abi) {
        return bytes(libDir + "/libibverbs.so.1", ElfBuilder.x86_64().define(1, 1, "libibverbs.so.1")
                .define(2, 0, "IBVERBS_1.0").define(3, 0, "IBVERBS_1.1", "IBVERBS_1.0")
                .define(4, 0, "IBVERBS_PRIVATE_" + abi)
                .function("ibv_get_device_list", 3).function("verbs_register_driver_" + abi, 4).build());
    }

    /** A provider library needing IBVERBS_PRIVATE_{abi}, in libibverbs's provider directory. */
    HostFixture provider(String name, int fileAbi, int neededAbi) {
        return bytes(libDir + "/libibverbs/lib" + name + "-rdmav" + fileAbi + ".so", ElfBuilder.x86_64()
                .need("libibverbs.so.1", 2, "IBVERBS_PRIVATE_" + neededAbi)
                .imported("verbs_register_driver_" + neededAbi, 2).build());
    }

    HostFixture driverFile(String name) {
        return file("/etc/libibverbs.d/" + name + ".driver", "driver " + name + "\n");
    }

    /** A plugin at {libDir}/{file} exporting the given symbols as data objects. */
    HostFixture plugin(String file, String... symbols) {
        ElfBuilder b = ElfBuilder.x86_64();
        for (String s : symbols) {
            b.object(s);
        }
        return bytes(libDir + "/" + file, b.build());
    }

    /** A collective library whose loader names these table versions in .rodata. */
    HostFixture collective(String file, int... versions) {
        java.io.ByteArrayOutputStream rodata = new java.io.ByteArrayOutputStream();
        rodata.writeBytes("NET/Plugin: Loaded net plugin %s (v%d)\0".getBytes());
        for (int v : versions) {
            rodata.writeBytes(("ncclNetPlugin_v" + v + "\0").getBytes());
        }
        rodata.writeBytes("ncclCollNetPlugin_v12\0".getBytes());
        return bytes(libDir + "/" + file, ElfBuilder.x86_64().function("ncclCommInitRank", 1)
                .rodata(rodata.toByteArray()).build());
    }
}
