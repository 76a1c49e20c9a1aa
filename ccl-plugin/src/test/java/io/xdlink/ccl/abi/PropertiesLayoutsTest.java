package io.xdlink.ccl.abi;

import io.xdlink.ccl.DeviceProperties;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;

/** The offsets of the ABI specification's table, field by field and version by version. */
class PropertiesLayoutsTest {

    @Test
    void offsetsAndSizesMatchTheAbi() {
        int[] versions = {6, 7, 8, 9, 10, 11, 12};
        long[] size = {48, 56, 64, 104, 104, 112, 128};
        long[] speed = {28, 28, 32, 36, 36, 36, 36};
        long[] latency = {36, 36, 40, 44, 44, 44, 44};
        long[] maxRecvs = {44, 44, 48, 52, 52, 52, 52};
        for (int i = 0; i < versions.length; i++) {
            int v = versions[i];
            assertThat(PropertiesLayouts.layout(v).byteSize()).as("v%d size", v).isEqualTo(size[i]);
            assertThat(PropertiesLayouts.offset(v, "speed")).as("v%d speed", v).isEqualTo(speed[i]);
            assertThat(PropertiesLayouts.offset(v, "latency")).as("v%d latency", v).isEqualTo(latency[i]);
            assertThat(PropertiesLayouts.offset(v, "maxRecvs")).as("v%d maxRecvs", v).isEqualTo(maxRecvs[i]);
        }
        assertThat(PropertiesLayouts.offset(7, "netDeviceType")).isEqualTo(48);
        assertThat(PropertiesLayouts.offset(8, "regIsGlobal")).isEqualTo(28);
        assertThat(PropertiesLayouts.offset(9, "forceFlush")).isEqualTo(32);
        assertThat(PropertiesLayouts.offset(9, "vProps")).isEqualTo(64);
        assertThat(PropertiesLayouts.offset(9, "maxP2pBytes")).isEqualTo(88);
        assertThat(PropertiesLayouts.offset(11, "maxMultiRequestSize")).isEqualTo(104);
        assertThat(PropertiesLayouts.offset(12, "maxP2pBytes")).isEqualTo(104);
        assertThat(PropertiesLayouts.offset(12, "maxCollBytes")).isEqualTo(112);
        assertThat(PropertiesLayouts.offset(12, "maxMultiRequestSize")).isEqualTo(120);
        assertThat(PropertiesLayouts.offset(12, "railId")).isEqualTo(124);
        assertThat(PropertiesLayouts.offset(12, "planeId")).isEqualTo(126);
    }

    @Test
    void writesEveryFieldOfV12AndNothingPastTheStruct() {
        DeviceProperties p = new DeviceProperties("xdlink-peer", Optional.empty(), 0x1122_3344_5566_7788L,
                DeviceProperties.PTR_HOST, 40_000, 0, 0.82f, 65_536, 8, List.of(3), 1L << 30, 1L << 30, 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(136);
            out.fill((byte) 0x5A);
            MemorySegment name = arena.allocateFrom("xdlink-peer");
            PropertiesLayouts.write(12, out, p, 3, name, MemorySegment.NULL);
            assertThat(out.get(ADDRESS, 0)).isEqualTo(name);
            assertThat(out.get(ADDRESS, 8).address()).isZero();
            assertThat(out.get(JAVA_LONG, 16)).isEqualTo(0x1122_3344_5566_7788L);
            assertThat(out.get(JAVA_INT, 24)).isEqualTo(1);
            assertThat(out.get(JAVA_INT, 28)).as("regIsGlobal").isZero();
            assertThat(out.get(JAVA_INT, 32)).as("forceFlush").isZero();
            assertThat(out.get(JAVA_INT, 36)).isEqualTo(40_000);
            assertThat(out.get(JAVA_FLOAT, 44)).isEqualTo(0.82f);
            assertThat(out.get(JAVA_INT, 48)).isEqualTo(65_536);
            assertThat(out.get(JAVA_INT, 52)).isEqualTo(8);
            assertThat(out.get(JAVA_INT, 56)).as("netDeviceType HOST").isZero();
            assertThat(out.get(JAVA_INT, 64)).as("vProps.ndevs").isEqualTo(1);
            assertThat(out.get(JAVA_INT, 68)).as("vProps.devs[0]").isEqualTo(3);
            assertThat(out.get(JAVA_LONG, 104)).isEqualTo(1L << 30);
            assertThat(out.get(JAVA_LONG, 112)).isEqualTo(1L << 30);
            assertThat(out.get(JAVA_INT, 120)).isEqualTo(1);
            assertThat(out.get(JAVA_SHORT, 124)).isEqualTo((short) -1);
            assertThat(out.get(JAVA_SHORT, 126)).isEqualTo((short) -1);
            assertThat(out.get(JAVA_LONG, 128)).as("bytes past the struct untouched").isEqualTo(0x5A5A5A5A5A5A5A5AL);
        }
    }

    @Test
    void v6HasSpeedAt28AndEndsAt48() {
        DeviceProperties p = new DeviceProperties("x", Optional.of("/sys/devices/pci0000:00/0000:00:0d.2"), 1,
                DeviceProperties.PTR_HOST, 20_000, 0, 1.6f, 1, 8, List.of(0), 1L << 30, 1L << 30, 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(56);
            out.fill((byte) 0x5A);
            PropertiesLayouts.write(6, out, p, 0, arena.allocateFrom("x"), arena.allocateFrom("/sys"));
            assertThat(out.get(JAVA_INT, 28)).isEqualTo(20_000);
            assertThat(out.get(JAVA_INT, 44)).isEqualTo(8);
            assertThat(out.get(JAVA_LONG, 48)).isEqualTo(0x5A5A5A5A5A5A5A5AL);
        }
    }
}
