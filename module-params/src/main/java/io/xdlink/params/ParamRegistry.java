package io.xdlink.params;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Every parameter of every module, joined from the {@link ParamProvider}s. A name (canonical, alias or deprecated)
 * declared twice anywhere is refused at construction, so two modules can never fight over one knob.
 */
public final class ParamRegistry {
    private final List<ParamSpec<?>> specs;
    private final Map<String, ParamSpec<?>> byName;
    private final Map<ParamSpec<?>, String> modules;

    private ParamRegistry(List<ParamProvider> providers) {
        List<ParamSpec<?>> all = new ArrayList<>();
        Map<String, ParamSpec<?>> names = new LinkedHashMap<>();
        Map<ParamSpec<?>, String> owner = new LinkedHashMap<>();
        for (ParamProvider provider : providers) {
            for (ParamSpec<?> spec : provider.specs()) {
                for (String n : spec.allNames()) {
                    ParamSpec<?> clash = names.putIfAbsent(ParamSpec.normalize(n), spec);
                    if (clash != null) {
                        throw new IllegalStateException("parameter name '" + n + "' is declared by both "
                                + owner.getOrDefault(clash, provider.module()) + " (" + clash.name() + ") and "
                                + provider.module() + " (" + spec.name() + ")");
                    }
                }
                all.add(spec);
                owner.put(spec, provider.module());
            }
        }
        all.sort(Comparator.comparing(ParamSpec::name));
        this.specs = Collections.unmodifiableList(all);
        this.byName = Collections.unmodifiableMap(names);
        this.modules = Collections.unmodifiableMap(owner);
    }

    /** The registry of every provider on the class path. */
    public static ParamRegistry load() {
        List<ParamProvider> providers = new ArrayList<>();
        ServiceLoader.load(ParamProvider.class, ParamRegistry.class.getClassLoader()).forEach(providers::add);
        providers.sort(Comparator.comparing(ParamProvider::module));
        return new ParamRegistry(providers);
    }

    /** A registry of exactly these providers (tests, tools). */
    public static ParamRegistry of(List<? extends ParamProvider> providers) {
        return new ParamRegistry(List.copyOf(providers));
    }

    /** Every spec, sorted by canonical name. */
    public List<ParamSpec<?>> specs() {
        return specs;
    }

    /** The spec answering to a name, canonical, alias or deprecated, with '-' and '_' alike. */
    public Optional<ParamSpec<?>> find(String name) {
        return Optional.ofNullable(byName.get(ParamSpec.normalize(name)));
    }

    /** The module that declared a spec. */
    public String module(ParamSpec<?> spec) {
        String m = modules.get(spec);
        if (m == null) {
            throw new IllegalArgumentException("parameter " + spec.name() + " is not in this registry");
        }
        return m;
    }

    /** Every name this registry accepts (normalized). */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
