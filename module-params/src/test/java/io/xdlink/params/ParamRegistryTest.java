package io.xdlink.params;

import io.xdlink.params.dma.DmaParams;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamRegistryTest {

    private static ParamProvider provider(String module, ParamSpec<?>... specs) {
        return new ParamProvider() {
            @Override
            public String module() {
                return module;
            }

            @Override
            public List<ParamSpec<?>> specs() {
                return List.of(specs);
            }
        };
    }

    @Test
    void serviceLoaderFindsThisModulesProvider() {
        ParamRegistry r = ParamRegistry.load();
        assertThat(r.find("ring_size")).contains(DmaParams.RING_SIZE);
        assertThat(r.find("RING-SIZE-MIN")).contains(DmaParams.RING_SIZE_MIN);
        assertThat(r.module(DmaParams.RING_SIZE)).isEqualTo("params");
    }

    @Test
    void everyNameOnTheClassPathIsUnique() {
        // ParamRegistry.load() refuses a clash; this states the property on the names themselves.
        Set<String> names = new HashSet<>();
        for (ParamSpec<?> spec : ParamRegistry.load().specs()) {
            for (String n : spec.allNames()) {
                assertThat(names.add(ParamSpec.normalize(n))).as("name %s declared twice", n).isTrue();
            }
        }
    }

    @Test
    void aNameDeclaredTwiceIsRefusedNamingBothModules() {
        ParamSpec<Boolean> a = ParamSpec.builder("loopback", new ParamType.Bool()).defaultValue(false)
                .description("a").build();
        ParamSpec<Boolean> b = ParamSpec.builder("lb", new ParamType.Bool()).aliases("loopback").defaultValue(false)
                .description("b").build();
        assertThatThrownBy(() -> ParamRegistry.of(List.of(provider("sim", a), provider("rails", b))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("parameter name 'loopback' is declared by both sim (loopback) and rails (lb)");
    }

    @Test
    void dashAndUnderscoreCollideToo() {
        ParamSpec<Boolean> a = ParamSpec.builder("ring_size", new ParamType.Bool()).defaultValue(false)
                .description("a").build();
        ParamSpec<Boolean> b = ParamSpec.builder("other", new ParamType.Bool()).deprecated("ring_size")
                .defaultValue(false).description("b").build();
        assertThatThrownBy(() -> ParamRegistry.of(List.of(provider("x", a), provider("y", b))))
                .hasMessageContaining("'ring_size' is declared by both");
    }

    @Test
    void specsRefuseBadDeclarations() {
        assertThatThrownBy(() -> ParamSpec.builder("Bad-Name", new ParamType.Bool()).defaultValue(false)
                .description("d").build()).hasMessageContaining("bad parameter name");
        assertThatThrownBy(() -> ParamSpec.builder("x", new ParamType.Int(0, 10, true)).defaultValue(11L)
                .description("d").build()).isInstanceOf(ParamValueException.class);
        assertThatThrownBy(() -> ParamSpec.builder("x", new ParamType.Bool()).defaultValue(true)
                .description("a | b").build()).hasMessageContaining("one line without '|'");
    }
}
