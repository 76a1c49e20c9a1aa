package io.xdlink.cli.docs;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks every {@code Class#method} a page writes as a code span: {@code io.xdlink.rails.verbs.QueuePair#postWrite}
 * names a class on the test class path (loaded without running its initialiser) that declares a method of that
 * name; {@code ccl-plugin/src/main/c/ccl_tables.c#do_isend} names a C file under the repository root that defines
 * that function. The numbered steps of a path (the isend path of docs/architecture.md) must each start with such a
 * reference, and there may be at most {@value #MAX_STEPS} of them.
 */
final class MethodRefs {
    static final int MAX_STEPS = 12;
    private static final Pattern JAVA = Pattern.compile("((?:[a-z][a-z0-9_]*\\.)+[A-Z][\\w$]*)#([A-Za-z_]\\w*)");
    private static final Pattern C = Pattern.compile("([\\w-]+(?:/[\\w.-]+)*\\.[ch])#([A-Za-z_]\\w*)");
    private static final Pattern STEP = Pattern.compile("^(\\d+)\\. (.*)");
    private static final Pattern LEADING_SPAN = Pattern.compile("^`([^`]+)`");

    private final Path root;

    MethodRefs(Path root) {
        this.root = root;
    }

    /** Problems with every reference in the page's code spans. */
    List<String> check(Markdown page) {
        List<String> problems = new ArrayList<>();
        for (Markdown.Code c : page.code()) {
            if (!c.block() && isReference(c.text())) {
                String why = resolve(c.text());
                if (why != null) {
                    problems.add(page.name() + ":" + c.line() + ": `" + c.text() + "`: " + why);
                }
            }
        }
        return problems;
    }

    /**
     * Problems with the numbered steps of a page's text: each must start with a reference (checked by
     * {@link #check}), they must be numbered 1, 2, 3, ... and there may be at most {@value #MAX_STEPS}.
     */
    static List<String> checkSteps(String name, String text) {
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        int expected = 1;
        for (int i = 0; i < lines.length; i++) {
            Matcher m = STEP.matcher(lines[i]);
            if (!m.find()) {
                continue;
            }
            String where = name + ":" + (i + 1) + ": step " + m.group(1);
            if (!m.group(1).equals(Integer.toString(expected))) {
                problems.add(where + ": expected step " + expected);
            }
            expected++;
            Matcher span = LEADING_SPAN.matcher(m.group(2));
            if (!span.find() || !isReference(span.group(1))) {
                problems.add(where + ": does not start with `package.Class#method` or `path/file.c#function`");
            }
        }
        if (expected - 1 > MAX_STEPS) {
            problems.add(name + ": " + (expected - 1) + " steps; at most " + MAX_STEPS);
        }
        if (expected == 1) {
            problems.add(name + ": no numbered steps");
        }
        return problems;
    }

    static boolean isReference(String text) {
        return JAVA.matcher(text).matches() || C.matcher(text).matches();
    }

    /** Null when the reference names something that exists, else why not. */
    String resolve(String ref) {
        Matcher j = JAVA.matcher(ref);
        if (j.matches()) {
            return javaMethod(j.group(1), j.group(2));
        }
        Matcher c = C.matcher(ref);
        if (c.matches()) {
            return cFunction(c.group(1), c.group(2));
        }
        return "not a reference";
    }

    private static String javaMethod(String className, String method) {
        Class<?> type;
        try {
            type = Class.forName(className, false, MethodRefs.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "no class " + className + " on cli's test class path";
        }
        boolean declared = Arrays.stream(type.getDeclaredMethods()).map(Method::getName).anyMatch(method::equals);
        return declared ? null : className + " declares no method " + method;
    }

    private String cFunction(String file, String function) {
        Path source = root.resolve(file).normalize();
        if (!source.startsWith(root) || !Files.isRegularFile(source)) {
            return "no file " + file + " under the repository root";
        }
        // A definition starts at the line's first column and is not a declaration (which ends with ';').
        Pattern definition =
                Pattern.compile("(?m)^[A-Za-z_][^;\\n]*\\b" + Pattern.quote(function) + "\\s*\\([^;\\n]*$");
        try {
            return definition.matcher(Files.readString(source)).find() ? null
                    : file + " defines no function " + function;
        } catch (IOException e) {
            return "cannot read " + file + ": " + e.getMessage();
        }
    }
}
