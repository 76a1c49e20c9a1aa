package io.xdlink.params;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameter table, rendered from the registry: as Markdown for docs/parameters.md (between {@value #BEGIN} and
 * {@value #END}) and as aligned text for {@code xdlink params}. Both come from the same specs, so the documentation
 * cannot name a parameter the code does not have.
 */
public final class ParamTable {
    /** Marks the start of the generated table in docs/parameters.md. */
    public static final String BEGIN = "<!-- params:begin -->";
    /** Marks its end. */
    public static final String END = "<!-- params:end -->";

    private static final List<String> COLUMNS =
            List.of("name", "module", "type", "default", "range", "unit", "aliases", "description");

    private ParamTable() {
    }

    /** The Markdown table, one row per parameter sorted by name, ending with a newline. */
    public static String markdown(ParamRegistry registry) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", COLUMNS)).append(" |\n");
        sb.append("|").append("---|".repeat(COLUMNS.size())).append('\n');
        for (ParamSpec<?> spec : registry.specs()) {
            List<String> cells = List.of(
                    "`" + spec.name() + "`",
                    registry.module(spec),
                    spec.type().typeName(),
                    formatDefault(spec).isEmpty() ? "(empty)" : "`" + formatDefault(spec) + "`",
                    spec.type().rangeText(),
                    spec.unit(),
                    aliases(spec),
                    spec.description());
            sb.append("| ");
            for (int i = 0; i < cells.size(); i++) {
                sb.append(i > 0 ? " | " : "").append(cells.get(i).replace("|", "\\|"));
            }
            sb.append(" |\n");
        }
        return sb.toString();
    }

    /**
     * The table as aligned text. When any parameter's value comes from somewhere other than its default, two columns
     * show each effective value and where it came from.
     */
    public static String text(Params params) {
        ParamRegistry registry = params.registry();
        boolean anySet = registry.specs().stream().anyMatch(s -> params.origin(s).source() != Origin.Source.DEFAULT);
        List<String> header = new ArrayList<>(List.of("NAME", "MODULE", "TYPE", "DEFAULT", "RANGE", "UNIT", "ALIASES"));
        if (anySet) {
            header.addAll(List.of("VALUE", "FROM"));
        }
        header.add("DESCRIPTION");
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (ParamSpec<?> spec : registry.specs()) {
            List<String> row = new ArrayList<>(List.of(spec.name(), registry.module(spec), spec.type().typeName(),
                    emptyShown(formatDefault(spec)), dash(spec.type().rangeText()), dash(spec.unit()), dash(aliases(spec))));
            if (anySet) {
                Origin origin = params.origin(spec);
                row.add(emptyShown(formatValue(spec, params)));
                row.add(origin.toString());
            }
            row.add(spec.description());
            rows.add(row);
        }
        int[] width = new int[header.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size() - 1; i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                sb.append(cell);
                if (i < row.size() - 1) {
                    sb.append(" ".repeat(width[i] - cell.length() + 2));
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * Markdown text (docs/parameters.md) with the table between the markers replaced by {@code table}.
     *
     * @throws IllegalArgumentException when the markers are missing or out of order
     */
    public static String splice(String readme, String table) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the file has no " + BEGIN + " ... " + END + " section");
        }
        return readme.substring(0, begin + BEGIN.length()) + "\n" + table + readme.substring(end);
    }

    /**
     * The table currently between the markers (everything after the begin marker's line, up to the end marker).
     *
     * @throws IllegalArgumentException when the markers are missing or out of order
     */
    public static String section(String readme) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the file has no " + BEGIN + " ... " + END + " section");
        }
        String inside = readme.substring(begin + BEGIN.length(), end);
        return inside.startsWith("\n") ? inside.substring(1) : inside;
    }

    private static String aliases(ParamSpec<?> spec) {
        List<String> parts = new ArrayList<>(spec.aliases());
        for (String d : spec.deprecated()) {
            parts.add(d + " (deprecated)");
        }
        return String.join(", ", parts);
    }

    private static String emptyShown(String s) {
        return s.isEmpty() ? "(empty)" : s;
    }

    private static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }

    private static <T> String formatDefault(ParamSpec<T> spec) {
        return spec.type().format(spec.defaultValue());
    }

    private static <T> String formatValue(ParamSpec<T> spec, Params params) {
        return spec.type().format(params.get(spec));
    }
}
