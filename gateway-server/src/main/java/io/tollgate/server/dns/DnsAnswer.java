package io.tollgate.server.dns;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * What one name resolved to: its addresses in the order the lookup family puts them (IPv4 first
 * for {@code all} and {@code v4_preferred}), and the smallest TTL among their records.
 */
record DnsAnswer(List<InetAddress> addresses, Duration ttl) {

    DnsAnswer {
        addresses = List.copyOf(addresses);
    }
}
