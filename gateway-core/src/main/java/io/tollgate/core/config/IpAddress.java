package io.tollgate.core.config;

/**
 * An IPv4 or IPv6 address read from its text without the JDK's resolver (which could look a name
 * up): dotted quads, and IPv6 in any of its written forms ({@code ::} compression, a trailing
 * dotted quad, a {@code %zone} suffix, which is ignored). An IPv4-mapped IPv6 address
 * ({@code ::ffff:10.0.0.1}) reads as the IPv4 address it carries, so that IPv4 ranges match a
 * client on a dual-stack socket. Immutable.
 */
final class IpAddress {

    private static final long MAPPED_PREFIX = 0xffffL << 32;

    final boolean v4;
    /** The upper 64 bits of an IPv6 address; 0 for IPv4. */
    final long high;
    /** The lower 64 bits of an IPv6 address, or the 32 bits of an IPv4 one. */
    final long low;

    private IpAddress(boolean v4, long high, long low) {
        this.v4 = v4;
        this.high = high;
        this.low = low;
    }

    /** The address {@code text} writes, or null when it is not an IP address literal. */
    static IpAddress parse(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            long v4 = parseV4(text);
            return v4 < 0 ? null : new IpAddress(true, 0, v4);
        }
        return parseV6(text);
    }

    /** The address of {@code bytes}, 4 of IPv4 or 16 of IPv6 in network order, as {@link java.net.InetAddress} gives them. */
    static IpAddress of(byte[] bytes) {
        if (bytes.length == 4) {
            return new IpAddress(true, 0, bits(bytes, 0, 4));
        }
        return ofV6(bits(bytes, 0, 8), bits(bytes, 8, 16));
    }

    private static long bits(byte[] bytes, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            value = (value << 8) | (bytes[i] & 0xff);
        }
        return value;
    }

    /** The IPv6 address of {@code high} and {@code low}, or the IPv4 address it maps. */
    private static IpAddress ofV6(long high, long low) {
        if (high == 0 && (low & 0xffffffff00000000L) == MAPPED_PREFIX) {
            return new IpAddress(true, 0, low & 0xffffffffL);
        }
        return new IpAddress(false, high, low);
    }

    /** The 32 bits of the dotted quad {@code text}, or -1 when it is not one. */
    static long parseV4(String text) {
        return parseV4(text, 0, text.length());
    }

    /** The 32 bits of the dotted quad in {@code text[from, to)}, or -1 when it is not one. */
    private static long parseV4(String text, int from, int to) {
        long value = 0;
        int parts = 0;
        int i = from;
        while (parts < 4) {
            int start = i;
            int part = 0;
            while (i < to && i - start < 3 && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                part = part * 10 + (text.charAt(i) - '0');
                i++;
            }
            if (i == start || part > 255 || (i - start > 1 && text.charAt(start) == '0')) {
                return -1;
            }
            value = (value << 8) | part;
            parts++;
            if (parts < 4) {
                if (i >= to || text.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        return i == to ? value : -1;
    }

    private static IpAddress parseV6(String text) {
        int end = text.indexOf('%');
        if (end < 0) {
            end = text.length();
        }
        int[] groups = new int[8];
        int count = 0;
        int gap = -1;
        int i = 0;
        if (text.startsWith("::")) {
            gap = 0;
            i = 2;
        }
        while (i < end) {
            if (count == 8) {
                return null;
            }
            int start = i;
            int group = 0;
            while (i < end && i - start < 4 && Character.digit(text.charAt(i), 16) >= 0) {
                group = (group << 4) | Character.digit(text.charAt(i), 16);
                i++;
            }
            if (i < end && text.charAt(i) == '.') {
                if (count > 6) {
                    return null;
                }
                long v4 = parseV4(text, start, end);
                if (v4 < 0) {
                    return null;
                }
                groups[count++] = (int) (v4 >>> 16);
                groups[count++] = (int) (v4 & 0xffff);
                i = end;
                break;
            }
            if (i == start) {
                return null;
            }
            groups[count++] = group;
            if (i == end) {
                break;
            }
            if (text.charAt(i) != ':') {
                return null;
            }
            i++;
            if (i < end && text.charAt(i) == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = count;
                i++;
            } else if (i == end) {
                return null;
            }
        }
        if (gap < 0 ? count != 8 : count > 7) {
            return null;
        }
        long high = 0;
        long low = 0;
        int zeros = 8 - count;
        int written = 0;
        for (int g = 0; g < count; g++) {
            if (g == gap) {
                written += zeros;
            }
            long value = groups[g];
            if (written < 4) {
                high |= value << (16 * (3 - written));
            } else {
                low |= value << (16 * (7 - written));
            }
            written++;
        }
        return ofV6(high, low);
    }
}
