package io.xdlink.params;

import java.util.List;

/** A small registry with one parameter of every type, for tests that need more than the real providers declare. */
final class TestSpecs implements ParamProvider {
    static final ParamSpec<Long> RING = ParamSpec.builder("ring_size", new ParamType.Int(16, 32768, true))
            .aliases("ring_frames").deprecated("ringsize").defaultValue(4096L).unit("frames")
            .description("ring").build();
    static final ParamSpec<Boolean> LOOPBACK = ParamSpec.builder("loopback", new ParamType.Bool())
            .defaultValue(false).description("loopback").build();
    static final ParamSpec<Long> STRIPE = ParamSpec.builder("stripe_min", new ParamType.Size(0, 1L << 30))
            .defaultValue(64L << 10).unit("bytes").description("stripe").build();
    static final ParamSpec<String> MODE = ParamSpec.builder("mode", new ParamType.Enum(List.of("auto", "fast")))
            .defaultValue("auto").description("mode").build();
    static final ParamSpec<Long> OFFSET = ParamSpec.builder("offset", new ParamType.Int(-10, 10, false))
            .defaultValue(0L).description("offset").build();

    @Override
    public String module() {
        return "test";
    }

    @Override
    public List<ParamSpec<?>> specs() {
        return List.of(RING, LOOPBACK, STRIPE, MODE, OFFSET);
    }

    static ParamRegistry registry() {
        return ParamRegistry.of(List.of(new TestSpecs()));
    }
}
