package io.xdlink.cli.docs;

import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds every xdlink parameter written in code and checks that the registry knows it (by its name or an alias).
 * A parameter is:
 * <ul>
 *   <li>each {@code name=value} inside {@code XDLINK_PARAMS=...} (quoted or one word; also
 *       {@code XDLINK_PARAMS_EXTRA}, which the lab script adds to it);</li>
 *   <li>the {@code name} of {@code -P name=value} (Maven's {@code -Pprofile} has no '=');</li>
 *   <li>each {@code name=value} of an {@code options xdlink ...} line; lines for other modules (odl_tb5,
 *       thunderbolt_net, ...) are those drivers' business and are not checked;</li>
 *   <li>a code span that is a lone snake_case name, or a lone {@code name=value}, whose first word is the first word of
 *       some xdlink parameter ({@code loopback}, {@code tcp}, {@code ccl}, ...): so {@code `tcp_keepalive_timeout_ms`}
 *       is checked, while {@code `iommu=pt`} or {@code `t_typical`} are not ours to judge.</li>
 * </ul>
 * {@code name=value} itself, the pages' placeholder, is skipped.
 */
final class ParamMentions {
    private static final Pattern ENVIRONMENT =
            Pattern.compile("XDLINK_PARAMS(?:_EXTRA)?=(?:\"([^\"]*)\"|'([^']*)'|(\\S+))");
    private static final Pattern DASH_P = Pattern.compile("(?<!\\S)-P[ \\t]*[\"']?([A-Za-z][\\w-]*)=");
    private static final Pattern OPTIONS = Pattern.compile("(?:^|[\\s\"'#])options[ \\t]+xdlink[ \\t]+([^\"'#]*)");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z][\\w-]*)=\\S*");
    private static final Pattern LONE_NAME = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z0-9]+)+");
    private static final Pattern LONE_ASSIGNMENT = Pattern.compile("([a-z][a-z0-9_]*)=\\S+");
    private static final String PLACEHOLDER = "name";

    private final ParamRegistry registry;
    private final Set<String> families = new TreeSet<>();

    ParamMentions(ParamRegistry registry) {
        this.registry = registry;
        for (ParamSpec<?> spec : registry.specs()) {
            families.add(family(spec.name()));
            spec.aliases().forEach(a -> families.add(family(a)));
        }
    }

    /** Every parameter name the page mentions, with its line, in order. */
    List<Mention> find(Markdown page) {
        List<Mention> found = new ArrayList<>();
        for (Markdown.Code c : page.code()) {
            String t = c.text();
            Matcher env = ENVIRONMENT.matcher(t);
            while (env.find()) {
                String value = env.group(1) != null ? env.group(1) : env.group(2) != null ? env.group(2) : env.group(3);
                assignments(value, c.line(), found);
            }
            Matcher p = DASH_P.matcher(t);
            while (p.find()) {
                found.add(new Mention(c.line(), p.group(1)));
            }
            Matcher o = OPTIONS.matcher(t);
            while (o.find()) {
                assignments(o.group(1), c.line(), found);
            }
            if (!c.block()) {
                String lone = null;
                Matcher a = LONE_ASSIGNMENT.matcher(t);
                if (a.matches()) {
                    lone = a.group(1);
                } else if (LONE_NAME.matcher(t).matches()) {
                    lone = t;
                }
                if (lone != null && families.contains(family(lone))) {
                    found.add(new Mention(c.line(), lone));
                }
            }
        }
        found.removeIf(m -> m.name().equals(PLACEHOLDER));
        return found;
    }

    /** Problems with the page's parameters, each "page:line: what is wrong". */
    List<String> check(Markdown page) {
        List<String> problems = new ArrayList<>();
        for (Mention m : find(page)) {
            if (registry.find(m.name()).isEmpty()) {
                problems.add(page.name() + ":" + m.line() + ": parameter '" + m.name()
                        + "' is not in the registry (xdlink params lists every one)");
            }
        }
        return problems;
    }

    private static void assignments(String text, int line, List<Mention> into) {
        for (String word : text.strip().split("\\s+")) {
            Matcher a = ASSIGNMENT.matcher(word);
            if (a.matches()) {
                into.add(new Mention(line, a.group(1)));
            }
        }
    }

    private static String family(String name) {
        int u = name.indexOf('_');
        return (u < 0 ? name : name.substring(0, u)).toLowerCase(java.util.Locale.ROOT);
    }

    /** A parameter name as written, on a line of the page. */
    record Mention(int line, String name) {
    }
}
