package io.tollgate.router.originaldst;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Reads the {@code x-envoy-original-dst-host} header: an IPv4 address or a bracketed IPv6 address,
 * then a port ({@code 10.0.0.7:8080}, {@code [2001:db8::7]:8080}). A host name is refused, so that
 * a request never makes the gateway resolve a name its client chose.
 */
final class HostHeaderAddress {

    private HostHeaderAddress() {
    }

    /** The address {@code value} names, or null when it is not an IP literal and a port in 1..65535. */
    static InetSocketAddress parse(String value) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            return null;
        }
        String host = value.substring(0, colon);
        boolean v6 = host.startsWith("[") && host.endsWith("]");
        if (v6) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || !literal(host, v6)) {
            return null;
        }
        int port = port(value, colon + 1);
        if (port < 1) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether {@code host} has only the characters of an IP literal, so that no name is ever looked up. */
    private static boolean literal(String host, boolean v6) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c == '.'
                    || v6 && (c == ':' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F');
            if (!ok) {
                return false;
            }
        }
        return v6 || host.chars().filter(c -> c == '.').count() == 3;
    }

    /** The decimal port from {@code start} to the end, or -1 when it is not one. */
    private static int port(String value, int start) {
        if (value.length() - start > 5) {
            return -1;
        }
        int port = 0;
        for (int i = start; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            port = port * 10 + (c - '0');
        }
        return port <= 65535 ? port : -1;
    }
}
