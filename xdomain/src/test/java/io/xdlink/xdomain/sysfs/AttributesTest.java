package io.xdlink.xdomain.sysfs;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AttributesTest {
    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final Path file = fs.getPath("/sys/bus/thunderbolt/devices/0-1/attr");

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    Path with(String content) {
        SysfsFixture.writeRaw(file, content);
        return file;
    }

    @Test
    void hexAsTheKernelPrintsIt() throws Exception {
        assertThat(Attributes.hex(with("0x8086\n"))).isEqualTo(0x8086);
        assertThat(Attributes.hex(with("0\n"))).isZero();
        assertThat(Attributes.hex(with("0xffffffff\n"))).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8086", "0x", "0x100000000", "0xg", "", "-0x1", "0x 1"})
    void hexRejected(String v) {
        assertThatThrownBy(() -> Attributes.hex(with(v + "\n")))
                .isInstanceOf(SysfsException.class)
                .hasMessageStartingWith(file + ": expected a hexadecimal id");
    }

    @Test
    void unsignedBounds() throws Exception {
        assertThat(Attributes.unsigned(with("4294967295\n"))).isEqualTo(4294967295L);
        assertThat(Attributes.unsigned(with("0"))).isZero();
        assertThatThrownBy(() -> Attributes.unsigned(with("4294967296\n")))
                .hasMessageContaining("expected a 32-bit unsigned number, found \"4294967296\"");
        assertThatThrownBy(() -> Attributes.unsigned(with("99999999999\n"))).hasMessageContaining("unsigned");
        assertThatThrownBy(() -> Attributes.unsigned(with("-1\n"))).hasMessageContaining("unsigned");
    }

    @Test
    void laneSpeedIsPerLaneInMbps() throws Exception {
        assertThat(Attributes.laneMbps(with("10.0 Gb/s\n"))).isEqualTo(10_000);
        assertThat(Attributes.laneMbps(with("20.0 Gb/s\n"))).isEqualTo(20_000);
        assertThat(Attributes.laneMbps(with("40.0 Gb/s\n"))).isEqualTo(40_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0 Gb/s", "20 Gb/s", "20.5 Gb/s", "20.0Gb/s", "20.0 Mb/s", "", "99999.0 Gb/s", "20.0 Gb/"})
    void laneSpeedRejected(String v) {
        assertThatThrownBy(() -> Attributes.laneMbps(with(v + "\n")))
                .isInstanceOf(SysfsException.class).hasMessageStartingWith(file + ": expected");
    }

    @Test
    void lanesOneTwoOrThree() throws Exception {
        assertThat(Attributes.lanes(with("1\n"))).isEqualTo(1);
        assertThat(Attributes.lanes(with("2\n"))).isEqualTo(2);
        assertThat(Attributes.lanes(with("3\n"))).isEqualTo(3);
        for (String bad : new String[] {"0", "4", "", "2 2", "12", "x"}) {
            assertThatThrownBy(() -> Attributes.lanes(with(bad + "\n")))
                    .hasMessageStartingWith(file + ": expected 1, 2 or 3 lanes");
        }
    }

    @Test
    void uuidStrict() throws Exception {
        UUID u = UUID.randomUUID();
        assertThat(Attributes.uuid(with(u + "\n"))).isEqualTo(u);
        assertThat(Attributes.uuid(with(u.toString().toUpperCase() + "\n"))).isEqualTo(u);
        assertThatThrownBy(() -> Attributes.uuid(with("1-2-3-4-5\n"))).hasMessageContaining("expected a UUID");
        assertThatThrownBy(() -> Attributes.uuid(with(u.toString().substring(0, 30))))
                .hasMessageContaining("expected a UUID");
    }

    @Test
    void settingsAndHopId() throws Exception {
        assertThat(Attributes.settings(with("0x00000007\n"))).isEqualTo(7);
        assertThat(Attributes.settings(with("0xffffffff\n"))).isEqualTo(0xffff_ffffL);
        assertThatThrownBy(() -> Attributes.settings(with("7\n"))).hasMessageContaining("settings like 0x00000001");
        assertThat(Attributes.hopId(with("15\n"))).isEqualTo(15);
        assertThatThrownBy(() -> Attributes.hopId(with("-1\n"))).hasMessageContaining("non-negative HopID");
    }

    @Test
    void devtypeFromUevent() throws Exception {
        assertThat(Attributes.devtype(with("MAJOR=1\nDEVTYPE=thunderbolt_xdomain\nMODALIAS=x\n")))
                .isEqualTo("thunderbolt_xdomain");
        assertThat(Attributes.devtype(with("MODALIAS=x\n"))).isEmpty();
    }

    @Test
    void textIsMadePrintable() throws Exception {
        assertThat(Attributes.text(with("evil\u001b[2Jname\u202e\n"))).isEqualTo("evil\\x1b[2Jname\\u202e");
    }
}
