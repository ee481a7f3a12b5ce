package io.tollgate.filters.rbac;

/**
 * An IPv4 or IPv6 address range written as {@code address/prefix} ({@code 10.0.0.0/8},
 * {@code 2001:db8::/32}; a bare address is the range of that one address), read once from the
 * configuration into masks, so that matching a client is two ANDs and two compares. A range
 * matches addresses of its own family only, as in Envoy (a range within {@code ::ffff:0:0/96},
 * the IPv4-mapped addresses, is the IPv4 range it maps); bits past the prefix are ignored.
 */
final class CidrRange {

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

    /**
     * The range {@code text} writes.
     *
     * @throws IllegalArgumentException saying what is wrong when it is not a range
     */
    static CidrRange parse(String text) {
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
    static boolean anyContains(CidrRange[] ranges, String text) {
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

    /** Whether {@code address} is in this range. */
    boolean contains(IpAddress address) {
        return address.v4 == v4 && (address.high & highMask) == high && (address.low & lowMask) == low;
    }

    @Override
    public String toString() {
        return text;
    }
}
