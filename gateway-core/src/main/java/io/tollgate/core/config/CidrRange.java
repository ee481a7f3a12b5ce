package io.tollgate.core.config;

import java.net.InetAddress;

/**
 * An IPv4 or IPv6 address range written as {@code address/prefix} ({@code 10.0.0.0/8},
 * {@code 2001:db8::/32}; a bare address is the range of that one address), as every setting that
 * trusts or refuses clients by address reads it: a listener's {@code client_ip} filter and
 * {@code proxy_protocol.trusted_sources}, the RBAC filter's {@code source_ip}. Read once into
 * masks, so that matching a client is two ANDs and two compares; bits past the prefix are ignored.
 *
 * <p>One rule for IPv4-mapped IPv6 addresses ({@code ::ffff:a.b.c.d}, what a dual-stack socket
 * reports for an IPv4 client), as in Envoy: such an address is the IPv4 address it carries, so it
 * matches the IPv4 range {@code a.b.c.d/n}, and a range within {@code ::ffff:0:0/96} is the IPv4
 * range it maps. Otherwise a range matches addresses of its own family only.
 */
public final class CidrRange {

    private final boolean v4;
    private final long highMask;
    private final long lowMask;
    private final long high;
    private final long low;
    private final String text;

    private CidrRange(boolean v4, long highMask, long lowMask, long high, long low, String text) {
        this.v4 = v4;
        this.highMask = highMask;
        this.lowMask = lowMask;
        this.high = high & highMask;
        this.low = low & lowMask;
        this.text = text;
    }

    /** Reads the range at {@code node}; an error names its path and what is wrong. */
    public static CidrRange parse(ConfigNode node) {
        try {
            return parse(node.asString());
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    /**
     * The range {@code text} writes. Only literal addresses: nothing is looked up by DNS.
     *
     * @throws IllegalArgumentException saying what is wrong when it is not a range
     */
    public static CidrRange parse(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        IpAddress ip = address.indexOf('%') >= 0 ? null : IpAddress.parse(address);
        if (ip == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or range (expected e.g."
                    + " 10.0.0.0/8, 192.168.1.7, 2001:db8::/32)");
        }
        int bits = address.indexOf(':') < 0 ? 32 : 128;
        int prefix = bits;
        if (slash >= 0) {
            String digits = text.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(digits) > bits) {
                throw new IllegalArgumentException("'" + text + "': prefix length '" + digits
                        + "' (expected: 0.." + bits + ")");
            }
            prefix = Integer.parseInt(digits);
        }
        boolean mapped = bits == 128 && ip.v4 && prefix >= 96;
        if (mapped) {
            prefix -= 96;
        }
        if (bits == 32 || mapped) {
            long mask = prefix == 0 ? 0 : (0xffffffffL << (32 - prefix)) & 0xffffffffL;
            return new CidrRange(true, 0, mask, 0, ip.low, text);
        }
        long high = ip.v4 ? 0 : ip.high;
        long low = ip.v4 ? (0xffffL << 32) | ip.low : ip.low;
        long highMask = prefix == 0 ? 0 : prefix >= 64 ? -1L : -1L << (64 - prefix);
        long lowMask = prefix <= 64 ? 0 : -1L << (128 - prefix);
        return new CidrRange(false, highMask, lowMask, high, low, text);
    }

    /**
     * Whether the address {@code text} writes (null: none) is in one of {@code ranges}: an IPv4
     * address is read into a long and compared without allocating; others are parsed first.
     */
    public static boolean anyContains(CidrRange[] ranges, String text) {
        if (text == null) {
            return false;
        }
        if (text.indexOf(':') < 0) {
            long v4 = IpAddress.parseV4(text);
            for (CidrRange range : ranges) {
                if (v4 >= 0 && range.v4 && (v4 & range.lowMask) == range.low) {
                    return true;
                }
            }
            return false;
        }
        IpAddress address = IpAddress.parse(text);
        if (address == null) {
            return false;
        }
        for (CidrRange range : ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code address} (an IPv4-mapped IPv6 one as the IPv4 address it carries) is in this range. */
    public boolean matches(InetAddress address) {
        return contains(IpAddress.of(address.getAddress()));
    }

    /** Whether {@code address} is in this range. */
    boolean contains(IpAddress address) {
        return address.v4 == v4 && (address.high & highMask) == high && (address.low & lowMask) == low;
    }

    /** The same addresses: the same family, prefix and network bits. */
    @Override
    public boolean equals(Object other) {
        return other instanceof CidrRange r && r.v4 == v4 && r.highMask == highMask && r.lowMask == lowMask
                && r.high == high && r.low == low;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(31 * (31 * high + low) + 31 * highMask + lowMask) + (v4 ? 1 : 0);
    }

    /** The range as it was written. */
    @Override
    public String toString() {
        return text;
    }
}
