package io.xdlink.params;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamTypeTest {
    private final ParamType.Int frames = new ParamType.Int(16, 32768, true);
    private final ParamType.Int signed = new ParamType.Int(-5, 5, false);
    private final ParamType.Size size = new ParamType.Size(0, 1L << 40);

    @Test
    void intsParseDecimalAndHexWithinRange() {
        assertThat(frames.parse("1024")).isEqualTo(1024L);
        assertThat(frames.parse("0x400")).isEqualTo(1024L);
        assertThat(signed.parse("-5")).isEqualTo(-5L);
    }

    @Test
    void unsignedRefusesASign() {
        assertThatThrownBy(() -> frames.parse("-1")).isInstanceOf(ParamValueException.class)
                .hasMessage("'-1' must be an unsigned number in 16..32768");
        assertThatThrownBy(() -> frames.parse("+64")).hasMessageContaining("unsigned");
    }

    @Test
    void overflowIsNamedAsSuch() {
        assertThatThrownBy(() -> frames.parse("9223372036854775808")).hasMessageContaining("overflows");
        assertThatThrownBy(() -> frames.parse("1".repeat(40))).hasMessageContaining("overflows");
        assertThatThrownBy(() -> frames.parse("1".repeat(40) + "x")).hasMessageContaining("is not a number");
        assertThatThrownBy(() -> size.parse("17179869184G")).hasMessageContaining("overflows");
    }

    @Test
    void sizeSuffixOnlyOnSizes() {
        assertThat(size.parse("4K")).isEqualTo(4096L);
        assertThat(size.parse("16m")).isEqualTo(16L << 20);
        assertThat(size.parse("1G")).isEqualTo(1L << 30);
        assertThatThrownBy(() -> frames.parse("1M")).hasMessageContaining("has a size suffix");
        assertThatThrownBy(() -> size.parse("-4K")).hasMessageContaining("must be a size");
        assertThatThrownBy(() -> size.parse("K")).hasMessageContaining("is not a number");
    }

    @Test
    void garbageIsNotANumberAndTheMessageIsClipped() {
        String junk = "\u0001\u0002" + "z".repeat(10_000);
        assertThatThrownBy(() -> frames.parse(junk))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u0001").hasSizeLessThan(200))
                .hasMessageContaining("is not a number");
        assertThatThrownBy(() -> frames.parse("")).hasMessageContaining("is not a number");
    }

    @Test
    void boolsAndEnumsAndLists() {
        ParamType.Bool b = new ParamType.Bool();
        assertThat(b.parse("Y")).isTrue();
        assertThat(b.parse("off")).isFalse();
        assertThatThrownBy(() -> b.parse("maybe")).hasMessageContaining("is not a boolean");
        ParamType.Enum e = new ParamType.Enum(List.of("auto", "mac_compat"));
        assertThat(e.parse("AUTO")).isEqualTo("auto");
        assertThatThrownBy(() -> e.parse("mac")).hasMessage("'mac' is not one of auto|mac_compat");
        ParamType.ListOf<Long> list = new ParamType.ListOf<>(frames, 3);
        assertThat(list.parse("16,32")).containsExactly(16L, 32L);
        assertThatThrownBy(() -> list.parse("16,32,64,128")).hasMessage("more than 3 items in a list");
        assertThatThrownBy(() -> list.parse("16,,32")).hasMessageContaining("is not a number");
    }

    @Test
    void formatReadsBack() {
        assertThat(size.parse(size.format(3L << 20))).isEqualTo(3L << 20);
        assertThat(size.format(1536L)).isEqualTo("1536");
        assertThat(frames.format(4096L)).isEqualTo("4096");
    }
}
