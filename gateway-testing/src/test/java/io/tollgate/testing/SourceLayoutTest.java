package io.tollgate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The project's structural rules over the main sources of every module, read as text (no bytecode
 * tool): no package depends on itself through others (nor two on each other), and no main source
 * file is over 600 lines. A package depends on another when one of its files imports from it or
 * names one of its types fully qualified outside comments and strings. Maven already forbids
 * cycles between modules, but not between packages inside one.
 */
class SourceLayoutTest {

    private static final int MAX_LINES = 600;

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern IMPORT =
            Pattern.compile("(?m)^import\\s+(?:static\\s+)?(io\\.tollgate\\.[\\w.]+?)(?:\\.\\*)?\\s*;");
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.tollgate(?:\\.[a-z_][a-z0-9_]*)+\\.[A-Z]");

    /** package -> package it uses -> the files of the first package that use it. */
    private static final Map<String, Map<String, Set<String>>> USES = new TreeMap<>();
    private static final Map<Path, Integer> LINES = new TreeMap<>();

    @BeforeAll
    static void readSources() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> sourceRoots;
        try (Stream<Path> dirs = Files.walk(root, 5)) {
            sourceRoots = dirs.filter(Files::isDirectory)
                    .filter(p -> p.endsWith(Path.of("src", "main", "java")))
                    .filter(p -> !root.relativize(p).toString().contains("target"))
                    .toList();
        }
        assertThat(sourceRoots).as("main source roots under %s", root).hasSizeGreaterThan(5);
        for (Path sourceRoot : sourceRoots) {
            try (Stream<Path> files = Files.walk(sourceRoot)) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(p -> read(root, p));
            }
        }
    }

    private static void read(Path root, Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LINES.put(root.relativize(file), (int) text.lines().count());
        Matcher pkg = PACKAGE.matcher(text);
        if (!pkg.find()) {
            return;
        }
        String from = pkg.group(1);
        Map<String, Set<String>> uses = USES.computeIfAbsent(from, k -> new TreeMap<>());
        String name = file.getFileName().toString();
        Matcher imports = IMPORT.matcher(text);
        while (imports.find()) {
            uses.computeIfAbsent(packageOf(imports.group(1)), k -> new TreeSet<>()).add(name);
        }
        Matcher qualified = QUALIFIED.matcher(codeOnly(text));
        while (qualified.find()) {
            String type = qualified.group();
            uses.computeIfAbsent(type.substring(0, type.length() - 2), k -> new TreeSet<>()).add(name);
        }
        uses.remove(from);
    }

    /** The package part of a qualified name: the segments before the first capitalised one. */
    private static String packageOf(String qualifiedName) {
        List<String> parts = new ArrayList<>();
        for (String part : qualifiedName.split("\\.")) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            parts.add(part);
        }
        return String.join(".", parts);
    }

    /** The text with comments, string and char literals blanked out, so only code is searched. */
    private static String codeOnly(String text) {
        StringBuilder code = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                code.append(' ');
            } else if (text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                code.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && text.charAt(i) != c) {
                    i += text.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                code.append(c).append(c);
            } else {
                code.append(c);
                i++;
            }
        }
        return code.toString();
    }

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        List<String> cycles = new ArrayList<>();
        for (Set<String> cycle : stronglyConnected()) {
            StringBuilder text = new StringBuilder();
            for (String from : cycle) {
                USES.get(from).forEach((to, files) -> {
                    if (cycle.contains(to)) {
                        text.append(from).append(" -> ").append(to).append(' ').append(files).append("; ");
                    }
                });
            }
            cycles.add(text.toString());
        }
        assertThat(cycles).as("packages that depend on themselves through others (and the files that do)").isEmpty();
    }

    /** The sets of two or more packages each of which depends on every other (Tarjan's algorithm). */
    private static List<Set<String>> stronglyConnected() {
        Map<String, Integer> order = new TreeMap<>();
        Map<String, Integer> low = new TreeMap<>();
        List<String> stack = new ArrayList<>();
        List<Set<String>> found = new ArrayList<>();
        for (String start : USES.keySet()) {
            if (!order.containsKey(start)) {
                visit(start, order, low, stack, found);
            }
        }
        return found;
    }

    private static void visit(String from, Map<String, Integer> order, Map<String, Integer> low, List<String> stack,
            List<Set<String>> found) {
        order.put(from, order.size());
        low.put(from, order.get(from));
        stack.add(from);
        for (String to : USES.get(from).keySet()) {
            if (!USES.containsKey(to)) {
                continue;
            }
            if (!order.containsKey(to)) {
                visit(to, order, low, stack, found);
                low.put(from, Math.min(low.get(from), low.get(to)));
            } else if (stack.contains(to)) {
                low.put(from, Math.min(low.get(from), order.get(to)));
            }
        }
        if (low.get(from).equals(order.get(from))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.remove(stack.size() - 1);
                component.add(member);
            } while (!member.equals(from));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    @Test
    void noMainSourceFileIsOverTheLimit() {
        Map<String, Integer> tooLong = new TreeMap<>();
        LINES.forEach((file, lines) -> {
            if (lines > MAX_LINES) {
                tooLong.put(file.toString().replace('\\', '/'), lines);
            }
        });
        assertThat(tooLong).as("main source files over %d lines", MAX_LINES).isEmpty();
    }
}
