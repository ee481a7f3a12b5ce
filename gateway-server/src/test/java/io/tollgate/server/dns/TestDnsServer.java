package io.tollgate.server.dns;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small authoritative DNS server over UDP on 127.0.0.1 for tests, on Netty's DNS codec: it
 * answers A and AAAA questions from records a test sets and changes (addresses and a TTL), says
 * NXDOMAIN for names it does not know, and can stop answering altogether (a server down: queries
 * time out). It counts the questions it got per name.
 */
public final class TestDnsServer implements AutoCloseable {

    /** The records of one name: its addresses and their TTL in seconds. */
    private record Records(List<InetAddress> addresses, long ttlSeconds) {
    }

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Map<String, Records> records = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> questions = new ConcurrentHashMap<>();
    private final Channel channel;
    private volatile boolean silent;

    public TestDnsServer() throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                new Answerer());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    /** Where the server listens, as a cluster's {@code dns_resolvers} entry. */
    public String address() {
        return "127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Makes {@code name} resolve to {@code addresses} (IP literals) with a TTL of {@code ttlSeconds}. */
    public void set(String name, long ttlSeconds, String... addresses) throws UnknownHostException {
        InetAddress[] parsed = new InetAddress[addresses.length];
        for (int i = 0; i < addresses.length; i++) {
            parsed[i] = InetAddress.getByName(addresses[i]); // literals: no lookup
        }
        records.put(key(name), new Records(List.of(parsed), ttlSeconds));
    }

    /** Forgets {@code name}: it is NXDOMAIN from now on. */
    public void remove(String name) {
        records.remove(key(name));
    }

    /** Whether the server leaves every question unanswered, as a server that is down. */
    public void silent(boolean silent) {
        this.silent = silent;
    }

    /** The questions asked about {@code name} so far, of any type. */
    public int questions(String name) {
        AtomicInteger count = questions.get(key(name));
        return count == null ? 0 : count.get();
    }

    private static String key(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers each query from the records of the moment. */
    private final class Answerer extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            String name = key(question.name());
            questions.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            if (silent) {
                return;
            }
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setAuthoritativeAnswer(true);
            response.setRecursionDesired(query.isRecursionDesired());
            response.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(question.name(), question.type()));
            Records known = records.get(name);
            if (known == null) {
                response.setCode(DnsResponseCode.NXDOMAIN);
            } else {
                int length = question.type() == DnsRecordType.AAAA ? 16 : 4;
                for (InetAddress address : known.addresses()) {
                    if (address.getAddress().length == length
                            && (question.type() == DnsRecordType.A || question.type() == DnsRecordType.AAAA)) {
                        response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), question.type(),
                                known.ttlSeconds(), Unpooled.wrappedBuffer(address.getAddress())));
                    }
                }
            }
            ctx.writeAndFlush(response);
        }
    }
}
