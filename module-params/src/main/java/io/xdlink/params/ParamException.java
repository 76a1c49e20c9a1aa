package io.xdlink.params;

import java.util.List;

/** A parameter that cannot be accepted: an unknown name or a bad value, with where it came from. */
public final class ParamException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ParamException(String message) {
        super(message);
    }

    static ParamException unknown(ParamRegistry registry, String name, Origin origin) {
        List<String> close = Suggestions.closest(ParamValueException.clip(name), registry.names(), 3);
        String hint = close.isEmpty() ? "" : "; did you mean " + Suggestions.quoteList(close) + "?";
        return new ParamException(origin + ": unknown parameter '" + ParamValueException.clip(name) + "'" + hint);
    }

    static ParamException badValue(ParamSpec<?> spec, String name, Origin origin, String why) {
        return new ParamException(origin + ": bad value for '" + ParamValueException.clip(name) + "': " + why);
    }
}
