package io.xdlink.params;

/**
 * Where a parameter's value came from, so every message about it can point at the line to fix.
 *
 * @param source the kind of source
 * @param where  a file and line ({@code /etc/xdlink/xdlink.conf:3}), a variable name, or empty
 */
public record Origin(Source source, String where) {
    /** The sources, lowest precedence first. */
    public enum Source { DEFAULT, FILE, ENVIRONMENT, EXPLICIT }

    public static final Origin DEFAULT = new Origin(Source.DEFAULT, "");

    public static Origin file(String path, int line) {
        return new Origin(Source.FILE, path + ":" + line);
    }

    public static Origin environment(String variable) {
        return new Origin(Source.ENVIRONMENT, variable);
    }

    public static Origin explicit(String where) {
        return new Origin(Source.EXPLICIT, where);
    }

    @Override
    public String toString() {
        return switch (source) {
            case DEFAULT -> "default";
            case FILE -> where;
            case ENVIRONMENT -> "$" + where;
            case EXPLICIT -> where.isEmpty() ? "explicit value" : where;
        };
    }
}
