package io.xdlink.cli.json;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class JsonReaderTest {

    @Test
    void readsWhatJsonWrites() {
        Map<String, Object> doc = Map.of("results", List.of(Map.of("MsgSize", 65536L, "BW_average", 15.84)),
                "name", "two cables \"A\"\n", "ok", true);
        Object back = JsonReader.parse(Json.format(new java.util.TreeMap<>(doc)));
        assertThat(back).isEqualTo(new java.util.TreeMap<>(doc));
    }

    @Test
    void numbers() {
        assertThat(JsonReader.parse("0")).isEqualTo(0L);
        assertThat(JsonReader.parse("-12")).isEqualTo(-12L);
        assertThat(JsonReader.parse("1.5e3")).isEqualTo(1500.0);
        assertThat(JsonReader.parse("123456789012345678901")).isEqualTo(1.2345678901234568e20);
    }

    @Test
    void escapes() {
        assertThat(JsonReader.parse("\"a\\u0041\\t\\/\"")).isEqualTo("aA\t/");
    }

    @Test
    void rejectsMalformedTruncatedAndHostileInput() {
        for (String bad : List.of("", "{", "[1,", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "01", "1.", "-", "1e",
                "\"abc", "\"\\x\"", "\"\\u12\"", "tru", "nul", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "1e999",
                "\"\u0001\"", "NaN", "[" .repeat(65) + "]".repeat(65))) {
            assertThatThrownBy(() -> JsonReader.parse(bad)).as(bad)
                    .isInstanceOf(JsonReader.JsonException.class).hasMessageContaining("offset");
        }
    }

    @Test
    void deepButAllowedNestingParses() {
        assertThat(JsonReader.parse("[".repeat(64) + "]".repeat(64))).isInstanceOf(List.class);
    }

    @Test
    void randomMutationsEitherParseOrFailWithJsonException() {
        long seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        String valid = Json.format(Map.of("results", List.of(Map.of("MsgSize", 2L, "BW_average", 0.5, "t", "x"))));
        String alphabet = "{}[]\",:0123456789.eE-+tfnul\\ \n";
        for (int i = 0; i < 100_000; i++) {
            char[] c = valid.toCharArray();
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                c[random.nextInt(c.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
            }
            String text = random.nextInt(8) == 0 ? new String(c, 0, random.nextInt(c.length)) : new String(c);
            try {
                JsonReader.parse(text);
            } catch (JsonReader.JsonException expected) {
                // refused with the layer's own exception
            } catch (RuntimeException other) {
                fail("seed " + seed + " (rerun with -Dxdlink.test.seed=" + seed + "): input <" + text + "> threw "
                        + other);
            }
        }
    }
}
