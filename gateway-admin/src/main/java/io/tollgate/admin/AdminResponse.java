package io.tollgate.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.UncheckedIOException;

/** What an admin endpoint answers, before it becomes an HTTP response. */
record AdminResponse(HttpResponseStatus status, String contentType, String body) {

    static final String TEXT = "text/plain; charset=utf-8";
    static final String JSON = "application/json";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static AdminResponse text(HttpResponseStatus status, String body) {
        return new AdminResponse(status, TEXT, body.endsWith("\n") ? body : body + "\n");
    }

    static AdminResponse json(JsonNode body) {
        try {
            return new AdminResponse(HttpResponseStatus.OK, JSON, MAPPER.writeValueAsString(body) + "\n");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A factory of JSON trees for endpoints to fill. */
    static ObjectMapper mapper() {
        return MAPPER;
    }
}
