package io.tollgate.protocols.generic;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A provider's answer to a generic call: the JSON of the value returned ({@code null} for a void
 * method or a null value), or the error to answer with.
 *
 * @param value the value as JSON when the call succeeded, else null
 * @param error the error, else null
 */
public record GenericReply(JsonNode value, CallError error) {

    public static GenericReply of(JsonNode value) {
        return new GenericReply(value, null);
    }

    public static GenericReply failed(CallError error) {
        return new GenericReply(null, error);
    }

    public boolean isError() {
        return error != null;
    }

    /** The HTTP status to answer with. */
    public int status() {
        return error == null ? 200 : error.status();
    }

    /** The HTTP body to answer with: the value's JSON, or the error's. */
    public String body() {
        return error == null ? io.tollgate.protocols.json.ExactJson.write(value) : error.toJson();
    }
}
