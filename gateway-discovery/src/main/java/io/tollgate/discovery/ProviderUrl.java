package io.tollgate.discovery;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A provider's URL as Dubbo and SOFARPC write it into a registry node's name, URL-encoded:
 * {@code protocol://host:port/path?key=value&...}. Parsed by hand: {@link java.net.URI} refuses
 * what these URLs hold (Dubbo's {@code methods=a,b}, empty values, IPv6 brackets aside).
 *
 * @param protocol the scheme, e.g. {@code dubbo}, {@code tri}, {@code bolt}
 * @param host the host or address, without brackets
 * @param port the port
 * @param path the path without its leading slash (the interface), possibly empty
 * @param parameters the query parameters in order, each key once (the last value wins)
 */
public record ProviderUrl(String protocol, String host, int port, String path, Map<String, String> parameters) {

    public ProviderUrl {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * Parses a registry node's name (URL-encoded once, as both frameworks write it).
     *
     * @throws IllegalArgumentException naming what is wrong when it is no provider URL
     */
    public static ProviderUrl parseEncoded(String nodeName) {
        String url;
        try {
            url = URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not URL-encoded: " + e.getMessage(), e);
        }
        return parse(url);
    }

    /**
     * Parses a plain provider URL.
     *
     * @throws IllegalArgumentException naming what is wrong when it is no provider URL
     */
    public static ProviderUrl parse(String url) {
        int scheme = url.indexOf("://");
        if (scheme <= 0) {
            throw new IllegalArgumentException("no protocol:// in " + url);
        }
        int query = url.indexOf('?', scheme + 3);
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        int slash = beforeQuery.indexOf('/', scheme + 3);
        String authority = slash < 0 ? beforeQuery.substring(scheme + 3) : beforeQuery.substring(scheme + 3, slash);
        String path = slash < 0 ? "" : beforeQuery.substring(slash + 1);
        int colon = authority.lastIndexOf(':');
        if (colon <= 0 || colon < authority.lastIndexOf(']')) {
            throw new IllegalArgumentException("no host:port in " + url);
        }
        String host = authority.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in " + url, e);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range in " + url);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                parameters.put(key, URLDecoder.decode(value, StandardCharsets.UTF_8));
            }
        }
        return new ProviderUrl(url.substring(0, scheme), host, port, path, parameters);
    }

    /** The parameter {@code key}, or {@code defaultValue} when absent or empty. */
    public String parameter(String key, String defaultValue) {
        String value = parameters.get(key);
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    /**
     * The integer parameter {@code key}, or {@code defaultValue} when absent, empty or not a number
     * (a registry holds what any client wrote).
     */
    public int intParameter(String key, int defaultValue) {
        long value = longParameter(key, defaultValue);
        return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? defaultValue : (int) value;
    }

    /** The long parameter {@code key}, or {@code defaultValue} when absent, empty or not a number. */
    public long longParameter(String key, long defaultValue) {
        String value = parameters.get(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return defaultValue;
        }
    }
}
