package io.xdlink.params.modprobe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SafeTextTest {
    @Test
    void controlsAreHexEscapes() {
        assertThat(SafeText.printable("a\u001b[2Jb\u0007\r\n\u007f\u0085")).isEqualTo("a\\x1b[2Jb\\x07\\x0d\\x0a\\x7f\\x85");
    }

    @Test
    void everyBidirectionalOverrideAndIsolateIsEscaped() {
        for (int cp : new int[] {0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e,
                0x200f, 0x061c, 0x200b, 0xfeff}) {
            String s = "x" + Character.toString(cp) + "y";
            assertThat(SafeText.printable(s)).as("U+%04X", cp).isEqualTo(String.format("x\\u%04xy", cp));
            assertThat(SafeText.clip(s)).as("U+%04X", cp).isEqualTo(String.format("x\\u%04xy", cp));
        }
    }

    @Test
    void printableTextAndABackslashStayReadable() {
        assertThat(SafeText.printable("ring_size=1024 évo-x3 日本 \\x1b")).isEqualTo("ring_size=1024 évo-x3 日本 \\\\x1b");
        assertThat(SafeText.printable("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
        assertThat(SafeText.printable("\uD83D")).isEqualTo("\\ud83d");
        assertThat(SafeText.printable("\uDB80\uDC00")).isEqualTo("\\U000f0000");
    }

    @Test
    void clipShortensAfterEscapingAndStaysBounded() {
        assertThat(SafeText.clip("x".repeat(1 << 20))).hasSize(SafeText.MAX_QUOTED).endsWith("...");
        assertThat(SafeText.clip("\u202e".repeat(1000))).hasSize(SafeText.MAX_QUOTED - 3 + 3)
                .startsWith("\\u202e\\u202e").doesNotContain("\u202e");
        assertThat(SafeText.clip("short")).isEqualTo("short");
    }
}
