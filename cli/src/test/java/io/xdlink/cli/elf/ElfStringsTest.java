package io.xdlink.cli.elf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ElfStringsTest {
    @Test
    void findsNamesAcrossPieceBoundaries(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream rodata = new ByteArrayOutputStream();
        // Place one name so it straddles the first piece boundary, and others around it.
        rodata.writeBytes(new byte[ElfStrings.CHUNK - 7]);
        rodata.writeBytes("ncclNetPlugin_v12\0".getBytes());
        rodata.writeBytes("NET/Plugin: Failed to find ncclNetPlugin_v%d symbol.\0".getBytes());
        rodata.writeBytes("xncclNetPlugin_v11\0ncclCollNetPlugin_v9\0ncclNetPlugin_v\0".getBytes());
        rodata.writeBytes(new byte[ElfStrings.CHUNK]);
        rodata.writeBytes("ncclNetPlugin_v6".getBytes());
        Path f = dir.resolve("libnccl.so.2");
        Files.write(f, ElfBuilder.x86_64().rodata(rodata.toByteArray()).build());

        ElfFile elf = ElfReader.read(f);
        ElfSection ro = elf.section(".rodata").orElseThrow();

        assertThat(ElfStrings.find(f, ro, "ncclNetPlugin_v")).containsExactly("ncclNetPlugin_v%d symbol.",
                "ncclNetPlugin_v11", "ncclNetPlugin_v12", "ncclNetPlugin_v6");
    }
}
