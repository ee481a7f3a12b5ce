package io.tollgate.core.accesslog;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The header names whose values a listener's access log format writes, so that the proxy copies
 * those values, and nothing else, into the entry of each request. Names are as the format spells
 * them: HTTP matches them ignoring case, Bolt headers and Dubbo attachments exactly.
 *
 * @param request names of request headers (Bolt headers, Dubbo attachments)
 * @param response names of response headers
 * @param trailers names of response trailers
 */
public record HeaderCapture(List<String> request, List<String> response, List<String> trailers) {

    /** Nothing to capture: the default format and formats without {@code %REQ%}, {@code %RESP%}, {@code %TRAILER%}. */
    public static final HeaderCapture NONE = new HeaderCapture(List.of(), List.of(), List.of());

    public HeaderCapture {
        request = List.copyOf(requireNonNull(request, "request"));
        response = List.copyOf(requireNonNull(response, "response"));
        trailers = List.copyOf(requireNonNull(trailers, "trailers"));
    }
}
