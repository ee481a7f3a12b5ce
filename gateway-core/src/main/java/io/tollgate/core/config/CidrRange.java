package io.tollgate.core.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 address range in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}; a
 * bare address is the range of that address alone), as the listener settings that trust or refuse
 * clients by address read them ({@code client_ip}, {@code proxy_protocol.trusted_sources}). An IPv4
 * range never matches an IPv6 address.
 */
public record CidrRange(byte[] network, int prefixLength) {

    /** Only literal addresses: nothing that {@link InetAddress#getByName} would resolve by DNS. */
    private static final Pattern LITERAL = Pattern.compile("[0-9a-fA-F.:]+");

    /** Reads the range at {@code node}; errors name its path. */
    public static CidrRange parse(ConfigNode node) {
        String text = node.asString();
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (!LITERAL.matcher(address).matches()) {
            throw node.error("'" + text + "' (expected an IP range such as 10.0.0.0/8 or 2001:db8::/32)");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw node.error("'" + text + "' (expected an IP range such as 10.0.0.0/8 or 2001:db8::/32)");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw node.error("'" + text + "' (expected a prefix length from 0 to " + bits + ")");
            }
        }
        return new CidrRange(bytes, prefix);
    }

    public boolean matches(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int whole = prefixLength / 8;
        for (int i = 0; i < whole; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (candidate[whole] & mask) == (network[whole] & mask);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CidrRange r && r.prefixLength == prefixLength && Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefixLength;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
