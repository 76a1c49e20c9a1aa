package io.xdlink.params.modprobe;

/**
 * One {@code name=value} argument of an {@code options} line, split the way the kernel splits it.
 *
 * @param name      the name as written (compare with {@link #normalizedName()})
 * @param value     the value with the kernel's quote removal applied; empty when {@code hasValue} is false
 * @param hasValue  false for a bare name ({@code p}), which the kernel passes as "no value" (true for a bool)
 * @param line      the physical line the argument starts on, so a continued line still points at the right place
 * @param openQuote true when a double quote opened in this argument never closed, so it swallowed the rest
 */
public record ModprobeOption(String name, String value, boolean hasValue, int line, boolean openQuote) {
    public ModprobeOption {
        if (!hasValue && !value.isEmpty()) {
            throw new IllegalArgumentException("a bare name has no value");
        }
    }

    /** The kernel compares parameter names with '-' and '_' alike (parameq). */
    public String normalizedName() {
        return ModprobeCommand.normalize(name);
    }

    /** As written: {@code name} or {@code name=value}. */
    public String text() {
        return hasValue ? name + "=" + value : name;
    }
}
