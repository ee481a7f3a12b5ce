package io.tollgate.protocols.json;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Java type named in text, as registries and headers give them: {@code int},
 * {@code java.lang.String}, {@code java.util.List<com.example.User>}, {@code long[]},
 * {@code [Ljava.lang.String;}. The erased name ({@link #erasedName}) is what Dubbo's and SOFARPC's
 * generic calls name a parameter by; the type arguments type the elements of lists and maps.
 *
 * @param name the class or primitive name, without array brackets or type arguments
 * @param arguments the type arguments, empty when none were named
 * @param dimensions how many array dimensions, 0 for none
 */
public record JavaType(String name, List<JavaType> arguments, int dimensions) {

    /** {@code java.lang.Object}: what an element type is when none was named. */
    public static final JavaType OBJECT = new JavaType("java.lang.Object", List.of(), 0);

    private static final Map<Character, String> DESCRIPTOR_PRIMITIVES = Map.of('Z', "boolean", 'B', "byte",
            'C', "char", 'S', "short", 'I', "int", 'J', "long", 'F', "float", 'D', "double");

    public JavaType {
        requireNonNull(name, "name");
        arguments = List.copyOf(arguments);
    }

    /**
     * Parses {@code text}: a name with optional {@code <...>} arguments and {@code []} suffixes, or a
     * JVM array name such as {@code [I} or {@code [Ljava.lang.String;}.
     *
     * @throws JsonMappingException when it is no such name
     */
    public static JavaType parse(String text) {
        Parser parser = new Parser(text.strip());
        JavaType type = parser.type();
        if (!parser.isAtEnd()) {
            throw new JsonMappingException("type \"" + text + "\": unexpected '" + parser.rest() + "'");
        }
        return type;
    }

    /** The name a generic call gives the parameter: erased, arrays as {@code []} suffixes ({@code java.lang.String[]}). */
    public String erasedName() {
        return dimensions == 0 ? name : name + "[]".repeat(dimensions);
    }

    /**
     * The name {@link Class#getName()} gives: as {@link #erasedName} but arrays as JVM names
     * ({@code [B}, {@code [Ljava.lang.String;}), which SOFARPC looks methods up by.
     */
    public String jvmName() {
        if (dimensions == 0) {
            return name;
        }
        String element = DESCRIPTOR_PRIMITIVES.entrySet().stream().filter(e -> e.getValue().equals(name))
                .map(e -> String.valueOf(e.getKey())).findFirst().orElse("L" + name + ";");
        return "[".repeat(dimensions) + element;
    }

    public boolean isArray() {
        return dimensions > 0;
    }

    /** The element type of an array. */
    public JavaType component() {
        return new JavaType(name, arguments, dimensions - 1);
    }

    /** Type argument {@code index}, or {@link #OBJECT} when not named. */
    public JavaType argument(int index) {
        return index < arguments.size() ? arguments.get(index) : OBJECT;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(name);
        if (!arguments.isEmpty()) {
            out.append('<');
            for (int i = 0; i < arguments.size(); i++) {
                out.append(i == 0 ? "" : ",").append(arguments.get(i));
            }
            out.append('>');
        }
        return out.append("[]".repeat(dimensions)).toString();
    }

    /** A small recursive-descent reader of type names. */
    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        JavaType type() {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == '[') {
                return jvmArray();
            }
            int start = at;
            while (at < text.length() && isNameChar(text.charAt(at))) {
                at++;
            }
            if (start == at) {
                throw new JsonMappingException("type \"" + text + "\": a name expected at " + start);
            }
            String name = text.substring(start, at);
            List<JavaType> arguments = new ArrayList<>();
            skipSpaces();
            if (at < text.length() && text.charAt(at) == '<') {
                do {
                    at++;
                    skipSpaces();
                    if (at < text.length() && text.charAt(at) == '?') {
                        wildcard();
                        arguments.add(OBJECT);
                    } else {
                        arguments.add(type());
                    }
                    skipSpaces();
                } while (at < text.length() && text.charAt(at) == ',');
                expect('>');
            }
            int dimensions = 0;
            skipSpaces();
            while (text.startsWith("[]", at)) {
                dimensions++;
                at += 2;
                skipSpaces();
            }
            return new JavaType(name, arguments, dimensions);
        }

        /** {@code ?}, {@code ? extends T} or {@code ? super T}: read as Object. */
        private void wildcard() {
            at++;
            skipSpaces();
            if (text.startsWith("extends", at) || text.startsWith("super", at)) {
                at += text.startsWith("extends", at) ? 7 : 5;
                type();
            }
        }

        private JavaType jvmArray() {
            int dimensions = 0;
            while (at < text.length() && text.charAt(at) == '[') {
                dimensions++;
                at++;
            }
            if (at >= text.length()) {
                throw new JsonMappingException("type \"" + text + "\": an array without element type");
            }
            char letter = text.charAt(at++);
            if (letter == 'L') {
                int semicolon = text.indexOf(';', at);
                if (semicolon <= at) {
                    throw new JsonMappingException("type \"" + text + "\": 'L' without a class name and ';'");
                }
                String name = text.substring(at, semicolon).replace('/', '.');
                at = semicolon + 1;
                return new JavaType(name, List.of(), dimensions);
            }
            String primitive = DESCRIPTOR_PRIMITIVES.get(letter);
            if (primitive == null) {
                throw new JsonMappingException("type \"" + text + "\": array element letter '" + letter + "'");
            }
            return new JavaType(primitive, List.of(), dimensions);
        }

        private void expect(char c) {
            if (at >= text.length() || text.charAt(at) != c) {
                throw new JsonMappingException("type \"" + text + "\": '" + c + "' expected at " + at);
            }
            at++;
        }

        private void skipSpaces() {
            while (at < text.length() && text.charAt(at) == ' ') {
                at++;
            }
        }

        private static boolean isNameChar(char c) {
            return Character.isJavaIdentifierPart(c) || c == '.';
        }

        boolean isAtEnd() {
            skipSpaces();
            return at == text.length();
        }

        String rest() {
            return text.substring(at);
        }
    }
}
