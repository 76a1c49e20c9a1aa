package io.xdlink.params;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Resolved values of every parameter in a registry, each with its {@link Origin}. Immutable: layering a source on
 * top returns a new {@code Params}.
 */
public final class Params {
    private final ParamRegistry registry;
    private final Map<ParamSpec<?>, Object> values;
    private final Map<ParamSpec<?>, Origin> origins;
    private final List<String> warnings;

    private Params(ParamRegistry registry, Map<ParamSpec<?>, Object> values, Map<ParamSpec<?>, Origin> origins,
                   List<String> warnings) {
        this.registry = registry;
        this.values = values;
        this.origins = origins;
        this.warnings = List.copyOf(warnings);
    }

    /** Every parameter at its default. */
    public static Params defaults(ParamRegistry registry) {
        Map<ParamSpec<?>, Object> v = new LinkedHashMap<>();
        Map<ParamSpec<?>, Origin> o = new LinkedHashMap<>();
        for (ParamSpec<?> spec : registry.specs()) {
            v.put(spec, spec.defaultValue());
            o.put(spec, Origin.DEFAULT);
        }
        return new Params(registry, v, o, List.of());
    }

    /** Defaults of every provider on the class path. */
    public static Params defaults() {
        return defaults(ParamRegistry.load());
    }

    /**
     * This set with one more value on top. The name may be an alias or a deprecated name (which adds a warning).
     *
     * @throws ParamException naming the origin and the closest known names when the name is unknown, or the
     *                        allowed values when the value is bad
     */
    public Params with(String name, String value, Origin origin) {
        ParamSpec<?> spec = registry.find(name).orElseThrow(() -> ParamException.unknown(registry, name, origin));
        Object parsed;
        try {
            parsed = spec.type().parse(value);
        } catch (ParamValueException e) {
            throw ParamException.badValue(spec, name, origin, e.getMessage());
        }
        List<String> w = new ArrayList<>(warnings);
        if (spec.deprecated().contains(ParamSpec.normalize(name))) {
            w.add(origin + ": parameter '" + name + "' is deprecated; use '" + spec.name() + "'");
        }
        Map<ParamSpec<?>, Object> v = new LinkedHashMap<>(values);
        Map<ParamSpec<?>, Origin> o = new LinkedHashMap<>(origins);
        v.put(spec, parsed);
        o.put(spec, origin);
        return new Params(registry, v, o, w);
    }

    /** This set with several explicit values on top, in map order. */
    public Params with(Map<String, String> explicit, Origin origin) {
        Params p = this;
        for (Map.Entry<String, String> e : explicit.entrySet()) {
            p = p.with(e.getKey(), e.getValue(), origin);
        }
        return p;
    }

    /** This set with one more warning for the user (a repeated setting, a suspicious line). */
    Params withWarning(String warning) {
        List<String> w = new ArrayList<>(warnings);
        w.add(warning);
        return new Params(registry, values, origins, w);
    }

    /** The value of a parameter. */
    public <T> T get(ParamSpec<T> spec) {
        Object v = values.get(Objects.requireNonNull(spec, "spec"));
        if (v == null) {
            throw new IllegalArgumentException("parameter " + spec.name() + " is not in this registry");
        }
        @SuppressWarnings("unchecked")
        T t = (T) v;
        return t;
    }

    /** Where the value of a parameter came from. */
    public Origin origin(ParamSpec<?> spec) {
        Origin o = origins.get(spec);
        if (o == null) {
            throw new IllegalArgumentException("parameter " + spec.name() + " is not in this registry");
        }
        return o;
    }

    /** Warnings gathered while resolving (deprecated names, fallbacks); each one should reach the user. */
    public List<String> warnings() {
        return warnings;
    }

    public ParamRegistry registry() {
        return registry;
    }
}
