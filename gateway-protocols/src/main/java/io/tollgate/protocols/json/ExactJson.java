package io.tollgate.protocols.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;

/**
 * The one JSON parser and writer of the HTTP-to-RPC calls, set to keep numbers exact: an integer
 * of any size is read as itself (never a double), a number with a fraction or exponent as a
 * {@code BigDecimal} with its scale (0.1 stays 0.1, 1.10 stays 1.10), and written back as read.
 * Strict: duplicate keys, trailing tokens and nesting deeper than {@link #MAX_DEPTH} are refused.
 * Jackson is already on the class path (the configuration's YAML).
 */
public final class ExactJson {

    /** The deepest nesting a request's JSON may have. */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    }

    private ExactJson() {
    }

    /** The JSON document {@code bytes} (UTF-8) as a tree. */
    public static JsonNode parse(byte[] bytes) {
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new JsonMappingException("the body is empty (expected: a JSON array of the arguments)");
            }
            return node;
        } catch (IOException e) {
            throw new JsonMappingException("the body is no JSON: " + firstLine(e));
        } catch (NumberFormatException e) {
            // Jackson's BigDecimal reading refuses an exponent past an int this way, not as a parse error
            throw new JsonMappingException("the body has a number out of range: " + firstLine(e));
        }
    }

    /** {@code node} as compact JSON text. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    /** The factory of nodes whose decimals keep their scale. */
    static JsonNodeFactory nodes() {
        return MAPPER.getNodeFactory();
    }

    private static String firstLine(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
