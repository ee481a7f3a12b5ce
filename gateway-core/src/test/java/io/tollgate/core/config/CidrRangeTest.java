package io.tollgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Address ranges read once and matched by masks, for IPv4, IPv6 and IPv4-mapped clients, as text and as sockets give them. */
class CidrRangeTest {

    @Test
    void ipv4RangesMatchTheirAddressesOnly() {
        CidrRange range = CidrRange.parse("10.1.0.0/16");
        assertThat(range.contains(ip("10.1.0.0"))).isTrue();
        assertThat(range.contains(ip("10.1.255.255"))).isTrue();
        assertThat(range.contains(ip("10.2.0.0"))).isFalse();
        assertThat(range.contains(ip("9.255.255.255"))).isFalse();
    }

    @Test
    void bareAddressIsARangeOfOneAndPrefixZeroMatchesItsWholeFamily() {
        assertThat(CidrRange.parse("192.168.1.7").contains(ip("192.168.1.7"))).isTrue();
        assertThat(CidrRange.parse("192.168.1.7").contains(ip("192.168.1.8"))).isFalse();
        assertThat(CidrRange.parse("0.0.0.0/0").contains(ip("203.0.113.9"))).isTrue();
        assertThat(CidrRange.parse("0.0.0.0/0").contains(ip("::1"))).isFalse();
        assertThat(CidrRange.parse("::/0").contains(ip("2001:db8::1"))).isTrue();
        assertThat(CidrRange.parse("::/0").contains(ip("127.0.0.1"))).isFalse();
    }

    @Test
    void bitsPastThePrefixAreIgnored() {
        assertThat(CidrRange.parse("10.1.2.3/8").contains(ip("10.200.0.1"))).isTrue();
    }

    @Test
    void ipv6RangesMatchEveryWrittenFormOfTheirAddresses() {
        CidrRange range = CidrRange.parse("2001:db8:aa::/48");
        assertThat(range.contains(ip("2001:db8:aa::1"))).isTrue();
        assertThat(range.contains(ip("2001:0db8:00aa:ffff:0:0:0:1"))).isTrue();
        assertThat(range.contains(ip("2001:db8:ab::1"))).isFalse();
        assertThat(CidrRange.parse("::1/128").contains(ip("0:0:0:0:0:0:0:1"))).isTrue();
        assertThat(CidrRange.parse("::1/128").contains(ip("0:0:0:0:0:0:0:1%lo"))).isTrue();
        assertThat(CidrRange.parse("fe80::/10").contains(ip("fe80::1%eth0"))).isTrue();
        assertThat(CidrRange.parse("2001:db8::/127").contains(ip("2001:db8::1"))).isTrue();
        assertThat(CidrRange.parse("2001:db8::/127").contains(ip("2001:db8::2"))).isFalse();
        assertThat(CidrRange.parse("2001:db8::/64").contains(ip("2001:db8:0:0:ffff::"))).isTrue();
        assertThat(CidrRange.parse("2001:db8::/65").contains(ip("2001:db8:0:0:ffff::"))).isFalse();
    }

    @Test
    void ipv4MappedClientsAndRangesAreIpv4() {
        assertThat(CidrRange.parse("10.0.0.0/8").contains(ip("::ffff:10.9.8.7"))).isTrue();
        assertThat(CidrRange.parse("10.0.0.0/8").contains(ip("0:0:0:0:0:ffff:a09:807"))).isTrue();
        assertThat(CidrRange.parse("::ffff:10.0.0.0/104").contains(ip("10.9.8.7"))).isTrue();
        assertThat(CidrRange.parse("::ffff:10.0.0.0/104").contains(ip("11.9.8.7"))).isFalse();
    }

    /**
     * The rule every range follows, whichever setting reads it: a socket's IPv4-mapped address
     * ({@code ::ffff:a.b.c.d}, an {@link Inet6Address}) is the IPv4 address it carries, as its text is.
     */
    @Test
    void aSocketsIpv4MappedAddressMatchesTheIpv4RangeAsItsTextDoes() throws Exception {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 9, 8, 7};
        InetAddress mappedSocket = Inet6Address.getByAddress(null, mapped, -1);
        InetAddress plain = InetAddress.getByAddress(new byte[] {10, 9, 8, 7});
        CidrRange ipv4 = CidrRange.parse("10.0.0.0/8");
        CidrRange ipv4AsMapped = CidrRange.parse("::ffff:10.0.0.0/104");
        assertThat(mappedSocket).isInstanceOf(Inet6Address.class);
        assertThat(ipv4.matches(mappedSocket)).isTrue();
        assertThat(ipv4.matches(plain)).isTrue();
        assertThat(ipv4AsMapped.matches(mappedSocket)).isTrue();
        assertThat(ipv4AsMapped.matches(plain)).isTrue();
        assertThat(ipv4AsMapped).isEqualTo(ipv4);
        assertThat(CidrRange.parse("11.0.0.0/8").matches(mappedSocket)).isFalse();
        assertThat(CidrRange.parse("::/0").matches(mappedSocket)).isFalse();
        assertThat(CidrRange.parse("2001:db8::/32").matches(InetAddress.getByName("2001:db8::5"))).isTrue();
        assertThat(ipv4.matches(InetAddress.getByName("2001:db8::5"))).isFalse();
    }

    @Test
    void aClientAddressAsTextIsInAnyOfItsRangesOrNone() {
        CidrRange[] ranges = {CidrRange.parse("192.168.0.0/16"), CidrRange.parse("10.0.0.0/8"),
            CidrRange.parse("2001:db8::/32")};
        assertThat(CidrRange.anyContains(ranges, "10.1.2.3")).isTrue();
        assertThat(CidrRange.anyContains(ranges, "192.168.9.9")).isTrue();
        assertThat(CidrRange.anyContains(ranges, "172.16.0.1")).isFalse();
        assertThat(CidrRange.anyContains(ranges, "2001:db8:0:0:0:0:0:7")).isTrue();
        assertThat(CidrRange.anyContains(ranges, "::ffff:10.0.0.1")).isTrue();
        assertThat(CidrRange.anyContains(ranges, "2001:db9::7")).isFalse();
        assertThat(CidrRange.anyContains(ranges, "10.0.0")).isFalse();
        assertThat(CidrRange.anyContains(ranges, "fe80::zz")).isFalse();
        assertThat(CidrRange.anyContains(ranges, null)).isFalse();
    }

    @Test
    void malformedAddressesReadAsNone() {
        for (String bad : new String[] {"", "10.0.0", "10.0.0.0.1", "256.0.0.1", "01.2.3.4", "10.0.0.1x", "a.b.c.d",
            "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", ":1", "1:", "g::1", "::1.2.3", "localhost"}) {
            assertThat(IpAddress.parse(bad)).as(bad).isNull();
        }
        assertThat(IpAddress.parse(null)).isNull();
    }

    @Test
    void malformedRangesAreRefusedSayingWhy() {
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.300/8")).hasMessageContaining("not an IP address");
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.0/33")).hasMessageContaining("expected: 0..32");
        assertThatThrownBy(() -> CidrRange.parse("::/129")).hasMessageContaining("expected: 0..128");
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.0/")).hasMessageContaining("prefix length");
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.0/-1")).hasMessageContaining("prefix length");
        assertThatThrownBy(() -> CidrRange.parse("example.com/8")).hasMessageContaining("not an IP address");
    }

    private static IpAddress ip(String text) {
        IpAddress address = IpAddress.parse(text);
        assertThat(address).as(text).isNotNull();
        return address;
    }
}
