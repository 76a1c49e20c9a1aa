package io.xdlink.xdomain.sysfs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TextTest {
    @Test
    void controlFormatAndBidiCharactersAreEscaped() {
        assertThat(Text.printable("a\tb\nc\u0085d\u200be\u2066f\\")).isEqualTo("a\\x09b\\x0ac\\x85d\\u200be\\u2066f\\\\");
        assertThat(Text.printable("Strix Halo – 節点")).isEqualTo("Strix Halo – 節点");
    }

    @Test
    void quoteClipsLongValues() {
        String q = Text.quote("z".repeat(10_000));
        assertThat(q).hasSize(Text.QUOTE_LIMIT + 5).startsWith("\"zzz").endsWith("...\"");
    }

    @Test
    void quoteNeverSplitsASurrogatePair() {
        String s = "a".repeat(Text.QUOTE_LIMIT - 1) + "\uD83D\uDE00" + "b";
        String q = Text.quote(s);
        assertThat(q).isEqualTo("\"" + "a".repeat(Text.QUOTE_LIMIT - 1) + "...\"");
    }
}
