package io.xdlink.params.check;

import java.util.List;
import java.util.Optional;

/**
 * What we know of a kernel driver our users load beside xdlink: the parameter names its code declares (the only
 * names the kernel accepts) and the mistakes seen in the field, so a modprobe line can be checked before the kernel
 * silently drops part of it.
 *
 * @param module     the module name, '_' form
 * @param source     where the driver comes from, for messages
 * @param parameters every parameter the module declares
 * @param mistakes   names users write that the module does not have, with what happened and what to write instead
 */
public record ForeignDriver(String module, String source, List<Parameter> parameters, List<Mistake> mistakes) {
    public ForeignDriver {
        parameters = List.copyOf(parameters);
        mistakes = List.copyOf(mistakes);
    }

    /**
     * A declared parameter.
     *
     * @param name         the name the code declares
     * @param values       the values it takes, in words, empty when not known
     * @param defaultValue its default, empty when not known
     * @param ringFrames   true when it sets a DMA ring size in frames of 4 KiB (so a planner can check it)
     */
    public record Parameter(String name, String values, String defaultValue, boolean ringFrames) {
        public static Parameter named(String name) {
            return new Parameter(name, "", "", false);
        }
    }

    /**
     * A name the module does not have but users write.
     *
     * @param name        the name written
     * @param replacement the name to write instead, empty when there is none
     * @param why         what happened, one sentence
     */
    public record Mistake(String name, String replacement, String why) {
    }

    /** The parameter declared under this name ('-' and '_' alike, case as the kernel compares it). */
    public Optional<Parameter> parameter(String name) {
        String n = name.replace('-', '_');
        return parameters.stream().filter(p -> p.name().equals(n)).findFirst();
    }

    /** The known mistake of this name, if users are known to write it. */
    public Optional<Mistake> mistake(String name) {
        String n = name.replace('-', '_');
        return mistakes.stream().filter(m -> m.name().equals(n)).findFirst();
    }

    /** The parameter that sets the DMA ring size, if the module has one. */
    public Optional<Parameter> ringParameter() {
        return parameters.stream().filter(Parameter::ringFrames).findFirst();
    }

    /** Every declared name, in declaration order. */
    public List<String> names() {
        return parameters.stream().map(Parameter::name).toList();
    }
}
