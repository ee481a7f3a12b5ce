package io.tollgate.protocols.generic;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.protocols.json.ExactJson;
import java.util.regex.Pattern;

/**
 * The one error contract of HTTP-to-RPC calls, the same for Dubbo and SOFARPC: an HTTP status and
 * a JSON body {@code {"error": {"type": ..., "message": ...}}}. A provider's exception keeps its class
 * name and message; every other error has a fixed type. No message ever carries a network address:
 * {@link #scrub} replaces them, and the gateway writes none of its own.
 *
 * @param status the HTTP status
 * @param type the exception's class name, or one of the gateway's types ({@code bad_request},
 *     {@code not_found}, {@code unavailable}, {@code timeout}, {@code bad_gateway}, {@code method_not_allowed})
 * @param message what happened, without addresses
 */
public record CallError(int status, String type, String message) {

    /** The longest message passed on: a provider's message is cut there. */
    static final int MAX_MESSAGE = 2000;

    private static final Pattern ADDRESSES = Pattern.compile(
            "[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s/?#,;]+"          // a URL's scheme and authority
            + "|\\[[0-9a-fA-F.%]*:[0-9a-fA-F:.%]*\\](?::\\d{1,5})?" // [ipv6] and port
            + "|(?<![\\w.])(?:\\d{1,3}\\.){3}\\d{1,3}(?::\\d{1,5})?(?![\\w.])" // ipv4 and port
            + "|(?<![\\w.:])(?=[0-9a-fA-F:]*(?:::|[a-fA-F]))(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![\\w.:])"
            // bare ipv6 (with "::" or a hex letter, so that a time of day stays)
            + "|(?<![\\w.-])[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)+:\\d{1,5}(?!\\d)"); // host.name:port

    public CallError {
        message = scrub(message);
    }

    public static CallError badRequest(String message) {
        return new CallError(400, "bad_request", message);
    }

    public static CallError notFound(String message) {
        return new CallError(404, "not_found", message);
    }

    public static CallError unavailable(String message) {
        return new CallError(503, "unavailable", message);
    }

    public static CallError timeout(String message) {
        return new CallError(504, "timeout", message);
    }

    /** The provider failed outside the application: a framework or transport error. */
    public static CallError badGateway(String message) {
        return new CallError(502, "bad_gateway", message);
    }

    /** An exception the provider's method threw: 500 with its class and message. */
    public static CallError providerException(String exceptionClass, String message) {
        return new CallError(500, exceptionClass, message == null ? "" : message);
    }

    /** The body to answer with. */
    public String toJson() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode error = json.objectNode().put("type", type).put("message", message);
        return ExactJson.write(json.objectNode().set("error", error));
    }

    /** {@code message} without network addresses (each becomes {@code <address>}), cut to {@link #MAX_MESSAGE} chars. */
    public static String scrub(String message) {
        if (message == null) {
            return "";
        }
        String cut = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
        return ADDRESSES.matcher(cut).replaceAll("<address>");
    }
}
