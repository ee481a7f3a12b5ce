package io.tollgate.core.accesslog;

/**
 * A format that does not parse, with the field of the {@code access_log} block it came from, so
 * that the configuration loader can name the path of the bad value.
 */
public final class FormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field {@code format} or {@code json_format.KEY}
     */
    public FormatException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The field within {@code access_log} that holds the bad format: {@code format} or {@code json_format.KEY}. */
    public String field() {
        return field;
    }
}
