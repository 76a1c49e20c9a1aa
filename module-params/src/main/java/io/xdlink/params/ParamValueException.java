package io.xdlink.params;

import io.xdlink.params.modprobe.SafeText;

/** A value that its parameter's type does not admit. The message names what is allowed. */
public final class ParamValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ParamValueException(String message) {
        super(message);
    }

    /** Shortens hostile input (a 1 MiB line) before it goes into a message. */
    static String clip(String text) {
        return SafeText.clip(text);
    }
}
