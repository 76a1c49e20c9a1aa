package io.xdlink.params;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamTableTest {

    @Test
    void markdownHasOneRowPerParameterAndEscapesPipes() {
        String md = ParamTable.markdown(TestSpecs.registry());
        assertThat(md.lines()).hasSize(2 + 5);
        assertThat(md).startsWith("| name | module | type | default | range | unit | aliases | description |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        assertThat(md).contains("| `mode` | test | enum | `auto` | auto\\|fast |  |  | mode |\n");
        assertThat(md).contains("| `ring_size` | test | unsigned | `4096` | 16..32768 | frames | ring_frames, "
                + "ringsize (deprecated) | ring |\n");
        assertThat(md).contains("| `stripe_min` | test | size | `64K` | 0..1G | bytes |  | stripe |\n");
    }

    @Test
    void anEmptyDefaultIsSpelledOut() {
        ParamSpec<String> name = ParamSpec.builder("peer_name", new ParamType.Str(16)).defaultValue("")
                .description("peer").build();
        ParamRegistry r = ParamRegistry.of(List.of(new ParamProvider() {
            @Override
            public String module() {
                return "x";
            }

            @Override
            public List<ParamSpec<?>> specs() {
                return List.of(name);
            }
        }));
        assertThat(ParamTable.markdown(r)).contains("| `peer_name` | x | string | (empty) |  |  |  | peer |");
        assertThat(ParamTable.text(Params.defaults(r))).contains("peer_name  x       string  (empty)");
    }

    @Test
    void textShowsValuesAndOriginsOnlyWhenSomethingIsSet() {
        Params defaults = Params.defaults(TestSpecs.registry());
        assertThat(ParamTable.text(defaults)).doesNotContain("VALUE").contains("DESCRIPTION");
        Params set = defaults.with(Map.of("ring_size", "64"), Origin.environment("XDLINK_PARAMS"));
        String text = ParamTable.text(set);
        assertThat(text.lines().findFirst().orElseThrow()).contains("VALUE").contains("FROM");
        assertThat(text.lines().filter(l -> l.startsWith("ring_size")).findFirst().orElseThrow())
                .contains(" 64 ").contains("$XDLINK_PARAMS");
        assertThat(text.lines().filter(l -> l.startsWith("mode")).findFirst().orElseThrow())
                .contains(" default ");
    }

    @Test
    void spliceReplacesOnlyTheSectionAndSectionReadsItBack() {
        String readme = "intro\n" + ParamTable.BEGIN + "\nold\n" + ParamTable.END + "\noutro\n";
        String updated = ParamTable.splice(readme, "| new |\n");
        assertThat(updated).isEqualTo("intro\n" + ParamTable.BEGIN + "\n| new |\n" + ParamTable.END + "\noutro\n");
        assertThat(ParamTable.section(updated)).isEqualTo("| new |\n");
        assertThatThrownBy(() -> ParamTable.section("no markers")).hasMessageContaining("has no");
    }
}
