package io.xdlink.cli.xdomain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xdlink.cli.UsageException;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HexWordsTest {

    @Test
    void acceptsTheUsualSpellings() {
        assertThat(HexWords.parse("0x00000001 2 0XFFFFFFFF,abcdef01")).containsExactly(1, 2, -1, 0xabcdef01);
        assertThat(HexWords.parse("0000000100000002")).containsExactly(1, 2);
        assertThat(HexWords.parse("data=[0x00000000, 0x00000001]\n")).containsExactly(0, 1);
        assertThat(HexWords.parse("  0x5\t0x6\r\n")).containsExactly(5, 6);
    }

    @Test
    void refusesWhatIsNotWordsAndNamesTheToken() {
        assertThatThrownBy(() -> HexWords.parse("0x1 0xZZ")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("token 2 '0xZZ'");
        assertThatThrownBy(() -> HexWords.parse("123456789")).isInstanceOf(UsageException.class)
                .hasMessageContaining("9 hex digits");
        assertThatThrownBy(() -> HexWords.parse("0x")).isInstanceOf(UsageException.class)
                .hasMessageContaining("no hex digits");
        assertThatThrownBy(() -> HexWords.parse(" , [] ")).isInstanceOf(UsageException.class)
                .hasMessage("no hex words given");
        assertThatThrownBy(() -> HexWords.parse("0 ".repeat(HexWords.MAX_WORDS + 1)))
                .isInstanceOf(UsageException.class).hasMessageContaining("more than 1024");
        assertThatThrownBy(() -> HexWords.parse("00000000".repeat(HexWords.MAX_WORDS + 5)))
                .isInstanceOf(UsageException.class).hasMessageContaining("more than 1024");
    }

    /** Random text over the characters the parser cares about: words or a {@link UsageException}, nothing else. */
    @Test
    void randomTextOnlyEverYieldsWordsOrUsageException() {
        String fixed = System.getProperty("xdlink.seed");
        long seed = fixed != null ? Long.decode(fixed) : new SecureRandom().nextLong();
        SplittableRandom r = new SplittableRandom(seed);
        String alphabet = "0123456789abcdefABCDEFxX=,[] \n\tdatg-;\u00e9";
        int parsed = 0;
        for (int i = 0; i < 100_000; i++) {
            char[] c = new char[r.nextInt(40)];
            for (int k = 0; k < c.length; k++) {
                c[k] = alphabet.charAt(r.nextInt(alphabet.length()));
            }
            try {
                int[] words = HexWords.parse(new String(c));
                if (words.length < 1 || words.length > HexWords.MAX_WORDS) {
                    throw new AssertionError(words.length + " words");
                }
                parsed++;
            } catch (UsageException e) {
                if (e.getMessage().isBlank()) {
                    throw new AssertionError("blank message", e);
                }
            } catch (Throwable t) {
                throw new AssertionError("failed with -Dxdlink.seed=" + seed + " at case " + i + " on '"
                        + new String(c) + "': " + t, t);
            }
        }
        assertThat(parsed).as("seed " + seed).isPositive();
    }
}
