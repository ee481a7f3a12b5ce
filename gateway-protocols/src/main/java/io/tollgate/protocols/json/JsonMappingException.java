package io.tollgate.protocols.json;

/**
 * A JSON value that cannot become its parameter's type, or a document that is no JSON: the
 * caller's fault (HTTP 400). The message names where in the arguments, e.g. {@code $[0].items[2]}.
 */
public final class JsonMappingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JsonMappingException(String message) {
        super(message, null, false, false);
    }

    /** The value at {@code path} does not fit. */
    static JsonMappingException at(String path, String message) {
        return new JsonMappingException(path + ": " + message);
    }
}
