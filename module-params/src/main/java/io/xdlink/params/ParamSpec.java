package io.xdlink.params;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.ArrayList;

/**
 * One parameter, declared once: everything the registry, the parsers, {@code xdlink params} and the documented table
 * know about it comes from here.
 *
 * @param name        canonical name, lower case, {@code [a-z][a-z0-9_]*}, at most 32 characters
 * @param aliases     other accepted names, declared rather than implied
 * @param deprecated  old names still accepted, each with a warning naming {@code name}
 * @param type        how values parse and what is allowed
 * @param defaultValue the value when no source sets one
 * @param unit        unit shown in tables (frames, bytes, us, Gb/s), empty when none
 * @param description one line saying what it does
 * @param <T>         the value type
 */
public record ParamSpec<T>(String name, List<String> aliases, List<String> deprecated, ParamType<T> type,
                           T defaultValue, String unit, String description) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    public ParamSpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        aliases = List.copyOf(aliases);
        deprecated = List.copyOf(deprecated);
        unit = unit == null ? "" : unit;
        for (String n : names(name, aliases, deprecated)) {
            if (!NAME.matcher(n).matches()) {
                throw new IllegalArgumentException("bad parameter name '" + n + "': use [a-z][a-z0-9_]*, at most 32");
            }
        }
        if (description == null || description.isBlank() || description.contains("\n") || description.contains("|")) {
            throw new IllegalArgumentException(name + ": the description must be one line without '|'");
        }
        // The default must be a value the type admits, or the parameter table would document an impossible default.
        type.parse(type.format(defaultValue));
    }

    private static List<String> names(String name, List<String> aliases, List<String> deprecated) {
        ArrayList<String> all = new ArrayList<>();
        all.add(name);
        all.addAll(aliases);
        all.addAll(deprecated);
        return all;
    }

    /** Every name this parameter answers to: canonical, aliases, deprecated. */
    public List<String> allNames() {
        return names(name, aliases, deprecated);
    }

    /** Linux treats '-' and '_' in parameter names alike; so do we. */
    public static String normalize(String name) {
        return name.trim().replace('-', '_').toLowerCase(Locale.ROOT);
    }

    public static <T> Builder<T> builder(String name, ParamType<T> type) {
        return new Builder<>(name, type);
    }

    /** Reads fluently at the declaration sites, where a parameter's whole story is told in one place. */
    public static final class Builder<T> {
        private final String name;
        private final ParamType<T> type;
        private List<String> aliases = List.of();
        private List<String> deprecated = List.of();
        private T defaultValue;
        private String unit = "";
        private String description;

        private Builder(String name, ParamType<T> type) {
            this.name = name;
            this.type = type;
        }

        public Builder<T> aliases(String... names) {
            this.aliases = List.of(names);
            return this;
        }

        public Builder<T> deprecated(String... names) {
            this.deprecated = List.of(names);
            return this;
        }

        public Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        public Builder<T> unit(String unit) {
            this.unit = unit;
            return this;
        }

        public Builder<T> description(String description) {
            this.description = description;
            return this;
        }

        public ParamSpec<T> build() {
            return new ParamSpec<>(name, aliases, deprecated, type, defaultValue, unit, description);
        }
    }
}
