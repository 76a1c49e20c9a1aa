package io.xdlink.cli.json;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {
    @Test
    void bidirectionalOverridesAndC1ControlsAreEscapedAndReadBackAsTheSameString() throws Exception {
        String hostile = "evil\u202egnp.exe\u2066\u0085\u001b";
        String json = Json.format(Map.of("name", hostile));
        assertThat(json).contains("evil\\u202egnp.exe\\u2066\\u0085\\u001b").doesNotContain("\u202e");
        assertThat(JsonReader.parse(json)).isEqualTo(Map.of("name", hostile));
    }

    @Test
    void nestedValuesInOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", "links");
        m.put("n", 3);
        m.put("ok", true);
        m.put("none", Optional.empty());
        m.put("hop", OptionalInt.of(15));
        m.put("list", List.of(1, "a"));
        m.put("empty", List.of());
        assertThat(Json.format(m)).isEqualTo("""
                {
                  "id": "links",
                  "n": 3,
                  "ok": true,
                  "none": null,
                  "hop": 15,
                  "list": [
                    1,
                    "a"
                  ],
                  "empty": []
                }""");
    }

    @Test
    void stringsAreEscaped() {
        assertThat(Json.quote("a\"b\\c\nd\u001be\u2028")).isEqualTo("\"a\\\"b\\\\c\\nd\\u001be\\u2028\"");
        assertThat(Json.quote("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\"");
        assertThat(Json.quote("x\uD83Dy")).isEqualTo("\"x\\ud83dy\"");
        assertThat(Json.format(Double.NaN)).isEqualTo("null");
    }

    @Test
    void unknownTypesAreRefused() {
        assertThatThrownBy(() -> Json.format(new Object())).isInstanceOf(IllegalArgumentException.class);
    }
}
