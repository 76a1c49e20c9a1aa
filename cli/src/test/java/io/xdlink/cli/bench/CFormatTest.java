package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CFormatTest {

    @Test
    void roundsTiesToEvenOnTheExactBinaryValueAsGlibcDoes() {
        assertThat(CFormat.fixed(0.125, 2)).isEqualTo("0.12");
        assertThat(CFormat.fixed(0.375, 2)).isEqualTo("0.38");
        // 2.675 is 2.67499999... in binary: both libraries print 2.67.
        assertThat(CFormat.fixed(2.675, 2)).isEqualTo("2.67");
        assertThat(CFormat.fixed(15.84, 2)).isEqualTo("15.84");
    }

    @Test
    void keepsTheSignOfNegativeValuesThatRoundToZero() {
        assertThat(CFormat.fixed(-0.001, 2)).isEqualTo("-0.00");
        assertThat(CFormat.fixed(-0.0, 2)).isEqualTo("-0.00");
        assertThat(CFormat.fixed(0.0, 2)).isEqualTo("0.00");
    }

    @Test
    void printsNonFiniteValuesLikeC() {
        assertThat(CFormat.fixed(Double.NaN, 2)).isEqualTo("nan");
        assertThat(CFormat.fixed(Double.POSITIVE_INFINITY, 2)).isEqualTo("inf");
        assertThat(CFormat.fixed(Double.NEGATIVE_INFINITY, 2)).isEqualTo("-inf");
    }

    @Test
    void padsOnTheRightAndNeverTruncates() {
        assertThat(CFormat.fixed(1.5, 7, 2)).isEqualTo("1.50   ");
        assertThat(CFormat.fixed(123456.5, 7, 2)).isEqualTo("123456.50");
        assertThat(CFormat.left(2, 7)).isEqualTo("2      ");
        assertThat(CFormat.left(12345678L, 7)).isEqualTo("12345678");
    }
}
