package io.tollgate.server.dns;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.DnsConfig.LookupFamily;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks names up for one DNS cluster with Netty's asynchronous resolver, on the resolver's event
 * loop, asking the cluster's name servers (or the system's) for the record types of its lookup
 * family. Nothing is cached here, in Netty or in the JVM: the cluster decides when to ask again
 * (its refresh rate, or the answer's TTL), so every lookup goes to a name server. The records are
 * read for their TTLs, which Netty's address lookups do not report.
 */
record DnsLookup(DnsNameResolver resolver, LookupFamily family, EventLoop loop) implements AutoCloseable {

    /** The TTL of an address given literally: it never changes. */
    private static final Duration FOREVER = Duration.ofSeconds(Integer.MAX_VALUE);

    /** A lookup on {@code loop} (a NIO loop) for a cluster of {@code config}. */
    static DnsLookup create(EventLoop loop, DnsConfig config) {
        DnsNameResolverBuilder builder = new DnsNameResolverBuilder(loop)
                .datagramChannelType(NioDatagramChannel.class)
                .resolveCache(NoopDnsCache.INSTANCE)
                .cnameCache(NoopDnsCnameCache.INSTANCE)
                .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
                .queryTimeoutMillis(config.queryTimeout().toMillis())
                .resolvedAddressTypes(addressTypes(config.lookupFamily()))
                .nameServerProvider(config.resolvers().isEmpty() ? DnsServerAddressStreamProviders.platformDefault()
                        : new SequentialDnsServerAddressStreamProvider(config.resolvers()));
        return new DnsLookup(builder.build(), config.lookupFamily(), loop);
    }

    private static ResolvedAddressTypes addressTypes(LookupFamily family) {
        return switch (family) {
            case V4_ONLY -> ResolvedAddressTypes.IPV4_ONLY;
            case V6_ONLY -> ResolvedAddressTypes.IPV6_ONLY;
            case AUTO -> ResolvedAddressTypes.IPV6_PREFERRED;
            case V4_PREFERRED, ALL -> ResolvedAddressTypes.IPV4_PREFERRED;
        };
    }

    /**
     * Looks {@code name} up: fails when the name servers do not answer in time, say the name does
     * not exist, or have no address of the family for it. MUST be called on the resolver's loop.
     */
    Future<DnsAnswer> lookup(String name) {
        Promise<DnsAnswer> answer = loop.newPromise();
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(name);
        if (literal != null) {
            try {
                return answer.setSuccess(new DnsAnswer(List.of(InetAddress.getByAddress(literal)), FOREVER));
            } catch (UnknownHostException e) {
                return answer.setFailure(e);
            }
        }
        switch (family) {
            case V4_ONLY -> ask(name, DnsRecordType.A, null, answer);
            case V6_ONLY -> ask(name, DnsRecordType.AAAA, null, answer);
            case AUTO -> ask(name, DnsRecordType.AAAA, DnsRecordType.A, answer);
            case V4_PREFERRED -> ask(name, DnsRecordType.A, DnsRecordType.AAAA, answer);
            case ALL -> askBoth(name, answer);
        }
        return answer;
    }

    /** Asks for {@code type}, and for {@code fallback} (when not null) if that finds nothing. */
    private void ask(String name, DnsRecordType type, DnsRecordType fallback, Promise<DnsAnswer> answer) {
        resolver.resolveAll(new DefaultDnsQuestion(name, type)).addListener((Future<List<DnsRecord>> f) -> {
            DnsAnswer found = f.isSuccess() ? answer(f.getNow()) : null;
            if (found != null && !found.addresses().isEmpty()) {
                answer.trySuccess(found);
            } else if (fallback != null) {
                ask(name, fallback, null, answer);
            } else {
                answer.tryFailure(f.cause() != null ? f.cause()
                        : new UnknownHostException(name + ": no " + type.name() + " record"));
            }
        });
    }

    /** Asks for A and AAAA records at once: either may be missing, not both. */
    private void askBoth(String name, Promise<DnsAnswer> answer) {
        Future<List<DnsRecord>> v4 = resolver.resolveAll(new DefaultDnsQuestion(name, DnsRecordType.A));
        Future<List<DnsRecord>> v6 = resolver.resolveAll(new DefaultDnsQuestion(name, DnsRecordType.AAAA));
        v4.addListener(f -> v6.addListener(g -> {
            DnsAnswer four = v4.isSuccess() ? answer(v4.getNow()) : null;
            DnsAnswer six = v6.isSuccess() ? answer(v6.getNow()) : null;
            List<InetAddress> addresses = new ArrayList<>();
            Duration ttl = FOREVER;
            for (DnsAnswer part : new DnsAnswer[] {four, six}) {
                if (part != null && !part.addresses().isEmpty()) {
                    addresses.addAll(part.addresses());
                    ttl = part.ttl().compareTo(ttl) < 0 ? part.ttl() : ttl;
                }
            }
            if (addresses.isEmpty()) {
                answer.tryFailure(v4.cause() != null ? v4.cause() : new UnknownHostException(name + ": no address"));
            } else {
                answer.trySuccess(new DnsAnswer(addresses, ttl));
            }
        }));
    }

    /** The addresses of {@code records} and their smallest TTL; releases the records. */
    private static DnsAnswer answer(List<DnsRecord> records) {
        List<InetAddress> addresses = new ArrayList<>(records.size());
        long ttl = Integer.MAX_VALUE;
        try {
            for (DnsRecord record : records) {
                if (!(record instanceof DnsRawRecord raw)) {
                    continue;
                }
                ByteBuf content = raw.content();
                int length = content.readableBytes();
                if (length != 4 && length != 16) {
                    continue;
                }
                try {
                    addresses.add(InetAddress.getByAddress(ByteBufUtil.getBytes(content, content.readerIndex(), length)));
                } catch (UnknownHostException e) {
                    continue; // not reached: the length was checked
                }
                ttl = Math.min(ttl, record.timeToLive());
            }
        } finally {
            records.forEach(ReferenceCountUtil::release);
        }
        return new DnsAnswer(addresses, Duration.ofSeconds(Math.max(0, ttl)));
    }

    @Override
    public void close() {
        resolver.close();
    }
}
