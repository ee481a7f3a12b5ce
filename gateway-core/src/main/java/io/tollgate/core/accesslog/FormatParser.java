package io.tollgate.core.accesslog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Reads Envoy-style format strings ({@code %OPERATOR%}, {@code %OPERATOR(ARGUMENT)%},
 * {@code %OPERATOR(ARGUMENT):MAX_LENGTH%}, {@code %%} for a percent sign) into parts, and collects
 * the header names the parts read, in the order the entry's header arrays hold them. One parser
 * serves one format (a JSON format's values share it, and so their header slots).
 */
final class FormatParser {

    private static final Map<String, Function<AccessLogEntry, String>> TEXT = Map.ofEntries(
            Map.entry("RESPONSE_FLAGS", AccessLogEntry::responseFlags),
            Map.entry("PROTOCOL", AccessLogEntry::protocol),
            Map.entry("UPSTREAM_HOST", AccessLogEntry::upstreamHost),
            Map.entry("UPSTREAM_CLUSTER", AccessLogEntry::upstreamCluster),
            Map.entry("ROUTE_NAME", AccessLogEntry::route),
            Map.entry("LISTENER_NAME", AccessLogEntry::listener),
            Map.entry("DOWNSTREAM_REMOTE_ADDRESS", AccessLogEntry::downstreamAddress),
            Map.entry("DOWNSTREAM_PEER_IDENTITY", AccessLogEntry::downstreamPeer),
            Map.entry("REQUEST_ID", AccessLogEntry::requestId),
            Map.entry("RPC_SERVICE", RpcNames::service),
            Map.entry("RPC_METHOD", RpcNames::method),
            Map.entry("TRACE_ID", AccessLogEntry::traceId),
            Map.entry("SPAN_ID", AccessLogEntry::spanId));

    private static final Map<String, ToLongFunction<AccessLogEntry>> NUMBERS = Map.of(
            "DURATION", e -> Math.max(0, e.durationMicros()) / 1000,
            "RESPONSE_CODE", AccessLogEntry::status,
            "BYTES_RECEIVED", AccessLogEntry::bytesReceived,
            "BYTES_SENT", AccessLogEntry::bytesSent);

    private static final Set<String> HEADER_OPERATORS = Set.of("REQ", "RESP", "TRAILER");
    private static final String START_TIME = "START_TIME";

    private final Map<String, Integer> request = new LinkedHashMap<>();
    private final Map<String, Integer> response = new LinkedHashMap<>();
    private final Map<String, Integer> trailers = new LinkedHashMap<>();

    /** Every operator name the parser knows, sorted, for error messages and the docs. */
    static Set<String> operators() {
        Set<String> names = new TreeSet<>(TEXT.keySet());
        names.addAll(NUMBERS.keySet());
        names.addAll(HEADER_OPERATORS);
        names.add(START_TIME);
        return names;
    }

    /** The header names the parsed formats read. */
    HeaderCapture capture() {
        return new HeaderCapture(List.copyOf(request.keySet()), List.copyOf(response.keySet()),
                List.copyOf(trailers.keySet()));
    }

    /**
     * Parses one format string.
     *
     * @throws IllegalArgumentException naming the unknown or malformed operator and its position
     */
    List<FormatPart> parse(String format) {
        List<FormatPart> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                i++;
                continue;
            }
            if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
                literal.append('%');
                i += 2;
                continue;
            }
            if (!literal.isEmpty()) {
                parts.add(new FormatPart.Literal(literal.toString()));
                literal.setLength(0);
            }
            i = operator(format, i, parts);
        }
        if (!literal.isEmpty()) {
            parts.add(new FormatPart.Literal(literal.toString()));
        }
        return parts;
    }

    /** Parses the operator starting at the {@code %} at {@code start}; returns the index after it. */
    private int operator(String format, int start, List<FormatPart> parts) {
        int i = start + 1;
        while (i < format.length() && isNameChar(format.charAt(i))) {
            i++;
        }
        String name = format.substring(start + 1, i);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a lone % at " + start + " (expected an operator such as %START_TIME%,"
                    + " or %% for a percent sign)");
        }
        String argument = null;
        if (i < format.length() && format.charAt(i) == '(') {
            int close = format.indexOf(')', i);
            if (close < 0) {
                throw new IllegalArgumentException("%" + name + "( at " + start + " has no closing parenthesis");
            }
            argument = format.substring(i + 1, close);
            i = close + 1;
        }
        int maxLength = 0;
        if (i < format.length() && format.charAt(i) == ':') {
            int digits = ++i;
            while (i < format.length() && Character.isDigit(format.charAt(i)) && i - digits < 9) {
                i++;
            }
            if (i == digits) {
                throw new IllegalArgumentException("%" + name + " at " + start + ": ':' must be followed by a maximum length");
            }
            maxLength = Integer.parseInt(format.substring(digits, i));
            if (maxLength == 0) {
                throw new IllegalArgumentException("%" + name + " at " + start + ": maximum length 0 (expected: >= 1)");
            }
        }
        if (i >= format.length() || format.charAt(i) != '%') {
            throw new IllegalArgumentException("%" + name + " at " + start + " is not closed by %");
        }
        parts.add(part(name, argument, maxLength));
        return i + 1;
    }

    private FormatPart part(String name, String argument, int maxLength) {
        String written = "%" + name + (argument == null ? "" : "(" + argument + ")") + "%";
        if (HEADER_OPERATORS.contains(name)) {
            if (argument == null || argument.isEmpty()) {
                throw new IllegalArgumentException(written + " needs a header name, e.g. %" + name + "(x-request-id)%");
            }
            return new FormatPart.Text(header(name, argument, written), maxLength);
        }
        if (argument != null && !name.equals(START_TIME)) {
            throw new IllegalArgumentException(written + " takes no argument");
        }
        if (name.equals(START_TIME)) {
            noMaxLength(written, maxLength);
            return new FormatPart.StartTime(StrftimePattern.compile(argument == null ? StrftimePattern.DEFAULT : argument));
        }
        ToLongFunction<AccessLogEntry> number = NUMBERS.get(name);
        if (number != null) {
            noMaxLength(written, maxLength);
            return new FormatPart.Number(number);
        }
        Function<AccessLogEntry, String> text = TEXT.get(name);
        if (text == null) {
            throw new IllegalArgumentException("unknown operator " + written + " (expected one of " + operators() + ")");
        }
        return new FormatPart.Text(text, maxLength);
    }

    /** The first value found of {@code X?Y?...}, pseudo-headers read from the entry's own fields. */
    private Function<AccessLogEntry, String> header(String operator, String argument, String written) {
        String[] names = argument.split("\\?", -1);
        List<Function<AccessLogEntry, String>> lookups = new ArrayList<>(names.length);
        for (String name : names) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException(written + " has an empty header name");
            }
            lookups.add(name.startsWith(":") ? pseudoHeader(operator, name, written) : slot(operator, name));
        }
        if (lookups.size() == 1) {
            return lookups.get(0);
        }
        return entry -> {
            for (Function<AccessLogEntry, String> lookup : lookups) {
                String value = lookup.apply(entry);
                if (value != null) {
                    return value;
                }
            }
            return null;
        };
    }

    private Function<AccessLogEntry, String> slot(String operator, String name) {
        switch (operator) {
            case "REQ" -> {
                int index = request.computeIfAbsent(name, n -> request.size());
                return e -> at(e.requestHeaders(), index);
            }
            case "RESP" -> {
                int index = response.computeIfAbsent(name, n -> response.size());
                return e -> at(e.responseHeaders(), index);
            }
            default -> {
                int index = trailers.computeIfAbsent(name, n -> trailers.size());
                return e -> at(e.trailers(), index);
            }
        }
    }

    private static Function<AccessLogEntry, String> pseudoHeader(String operator, String name, String written) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (operator.equals("REQ")) {
            switch (lower) {
                case ":path" -> {
                    return AccessLogEntry::path;
                }
                case ":method" -> {
                    return AccessLogEntry::method;
                }
                case ":authority" -> {
                    return AccessLogEntry::authority;
                }
                default -> {
                }
            }
        } else if (operator.equals("RESP") && lower.equals(":status")) {
            return e -> e.status() == 0 ? null : Integer.toString(e.status());
        }
        throw new IllegalArgumentException(written + ": pseudo-header " + name + " is not known (expected "
                + (operator.equals("REQ") ? ":path, :method or :authority" : operator.equals("RESP") ? ":status" : "none")
                + ")");
    }

    private static String at(String[] values, int index) {
        return values == null ? null : values[index];
    }

    private static void noMaxLength(String written, int maxLength) {
        if (maxLength > 0) {
            throw new IllegalArgumentException(written + " takes no maximum length");
        }
    }

    private static boolean isNameChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
}
