package io.xdlink.params;

import java.util.List;
import java.util.LinkedHashSet;
import java.util.Set;

/** A parameter that cannot be accepted: an unknown name or a bad value, with where it came from. */
public final class ParamException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ParamException(String message) {
        super(message);
    }

    static ParamException unknown(ParamRegistry registry, String name, Origin origin) {
        // Suggest the names a user should write: canonical names and aliases, never a deprecated one.
        Set<String> names = new LinkedHashSet<>();
        for (ParamSpec<?> spec : registry.specs()) {
            names.add(spec.name());
            names.addAll(spec.aliases());
        }
        List<String> close = Suggestions.closest(ParamValueException.clip(name), List.copyOf(names), 3);
        String hint = close.isEmpty() ? "; no parameter has a name like it: 'xdlink params' lists them all"
                : "; did you mean " + Suggestions.quoteList(close) + "?";
        return new ParamException(origin + ": unknown parameter '" + ParamValueException.clip(name) + "'" + hint);
    }

    static ParamException badValue(ParamSpec<?> spec, String name, Origin origin, String why) {
        return new ParamException(origin + ": bad value for '" + ParamValueException.clip(name) + "': " + why);
    }
}
