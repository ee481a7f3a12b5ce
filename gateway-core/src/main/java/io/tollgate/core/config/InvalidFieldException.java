package io.tollgate.core.config;

/**
 * A record of the configuration refused a value in its own check: the record names the field by
 * its key in the configuration file, relative to where the record is written (for example
 * {@code max_ejection_time}, {@code retry_back_off.max_interval}, {@code virtual_hosts[1].domains[0]};
 * empty for the record's node itself). A reader building the record reports the problem at that
 * field's path ({@link ConfigNode#build}); code that builds a record itself gets an
 * {@link IllegalArgumentException} that names the field.
 */
public final class InvalidFieldException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    /** {@code problem} with the value at {@code field}, worded as after the field's path in a configuration error. */
    public InvalidFieldException(String field, String problem) {
        super(field.isEmpty() ? problem : field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    /** The field, relative to the record; empty for the record itself. */
    public String field() {
        return field;
    }

    /** What is wrong with the field's value, without the field. */
    public String problem() {
        return problem;
    }
}
