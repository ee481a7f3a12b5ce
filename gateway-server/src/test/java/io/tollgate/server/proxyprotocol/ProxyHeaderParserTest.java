package io.tollgate.server.proxyprotocol;

import static io.tollgate.server.proxyprotocol.ProxyHeaders.concat;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.tlv;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v1;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2Tcp4;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2Tcp6;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tollgate.core.config.UpstreamProxyProtocol;
import io.tollgate.server.proxyprotocol.ProxyHeaderParser.Detection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The PROXY protocol header rules, each next to the legal header that resembles it: v1 TCP4, TCP6
 * and UNKNOWN; v2 TCP4, TCP6, LOCAL, UNSPEC and UNIX, with fields and a CRC32c; the bytes that
 * follow a header left unread; and what the encoder writes read back.
 */
class ProxyHeaderParserTest {

    private static final int[] CLIENT = {192, 0, 2, 7};
    private static final int[] GATEWAY = {198, 51, 100, 1};

    @Test
    void v1Tcp4CarriesTheAddressesAndLeavesWhatFollows() throws Exception {
        ByteBuf in = buf(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"), ascii("GET / HTTP/1.1\r\n")));
        ProxyHeader header = parse(in);
        assertThat(header.version()).isEqualTo(1);
        assertThat(header.source()).isEqualTo(new InetSocketAddress("192.0.2.7", 56324));
        assertThat(header.destination()).isEqualTo(new InetSocketAddress("198.51.100.1", 443));
        assertThat(in.toString(StandardCharsets.US_ASCII)).isEqualTo("GET / HTTP/1.1\r\n");
        in.release();
    }

    @Test
    void v1Tcp6AndUnknown() throws Exception {
        ProxyHeader v6 = parse(buf(v1("PROXY TCP6 2001:db8::7 ::1 65535 0")));
        assertThat(v6.source()).isEqualTo(new InetSocketAddress(InetAddress.getByName("2001:db8::7"), 65535));
        assertThat(v6.destination().getPort()).isZero();
        ProxyHeader unknown = parse(buf(v1("PROXY UNKNOWN ffff::1 ffff::2 1 2")));
        assertThat(unknown.carriesAddress()).isFalse();
        assertThat(parse(buf(v1("PROXY UNKNOWN"))).carriesAddress()).isFalse();
    }

    @Test
    void v1OfTheLongestLengthIsReadOneByteMoreIsNot() throws Exception {
        String addresses = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535";
        String longest = "PROXY UNKNOWN " + addresses;
        assertThat(longest.length() + 2).isEqualTo(ProxyHeaderParser.V1_MAX_LENGTH);
        assertThat(parse(buf(v1(longest))).carriesAddress()).isFalse();
        assertThat(parse(buf(v1("PROXY TCP6 " + addresses))).source().getPort()).isEqualTo(65535);
        assertMalformed(v1(longest + " "), "without CRLF");
    }

    @Test
    void malformedV1Headers() {
        assertMalformed(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324"), "5 fields");
        assertMalformed(v1("PROXY TCP4 192.0.2.7  198.51.100.1 56324 443"), "fields");
        assertMalformed(v1("PROXY TCP4 2001:db8::7 198.51.100.1 56324 443"), "is not an IPv4");
        assertMalformed(v1("PROXY TCP6 192.0.2.7 ::1 56324 443"), "is not an IPv6");
        assertMalformed(v1("PROXY TCP4 192.0.2.256 198.51.100.1 56324 443"), "is not an IPv4");
        assertMalformed(v1("PROXY TCP4 example.com 198.51.100.1 56324 443"), "is not an IPv4");
        assertMalformed(v1("PROXY TCP4 192.0.2.7 198.51.100.1 65536 443"), "port '65536'");
        assertMalformed(v1("PROXY TCP4 192.0.2.7 198.51.100.1 -1 443"), "port '-1'");
        assertMalformed(v1("PROXY UDP4 192.0.2.7 198.51.100.1 1 443"), "not TCP4");
        assertMalformed(ascii("PROXY TCP4 192.0.2.7 198.51.100.1 1 443\n"), "bare LF");
    }

    @Test
    void aPartialHeaderAsksForMoreAndReadsNothing() throws Exception {
        byte[] whole = concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"));
        for (int n = 0; n < whole.length; n++) {
            ByteBuf part = Unpooled.wrappedBuffer(whole, 0, n);
            Detection detection = ProxyHeaderParser.detect(part);
            assertThat(detection).as("after %d bytes", n).isIn(Detection.NEED_MORE, Detection.V1);
            if (detection == Detection.V1) {
                assertThat(ProxyHeaderParser.parse(part, detection)).isNull();
                assertThat(part.readerIndex()).isZero();
            }
        }
        byte[] v2 = v2Tcp4(CLIENT, 1, GATEWAY, 2);
        for (int n = 0; n < v2.length; n++) {
            ByteBuf part = Unpooled.wrappedBuffer(v2, 0, n);
            Detection detection = ProxyHeaderParser.detect(part);
            if (detection == Detection.V2) {
                assertThat(ProxyHeaderParser.parse(part, detection)).as("after %d bytes", n).isNull();
            } else {
                assertThat(detection).isEqualTo(Detection.NEED_MORE);
            }
        }
    }

    @Test
    void bytesThatBeginNoHeaderAreNone() {
        assertThat(ProxyHeaderParser.detect(buf(ascii("GET / HTTP/1.1")))).isEqualTo(Detection.NONE);
        assertThat(ProxyHeaderParser.detect(buf(ascii("PROXZ")))).isEqualTo(Detection.NONE);
        assertThat(ProxyHeaderParser.detect(buf(ascii("PROXY")))).isEqualTo(Detection.NEED_MORE);
        assertThat(ProxyHeaderParser.detect(buf(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0B})))
                .isEqualTo(Detection.NONE);
        assertThat(ProxyHeaderParser.detect(buf(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")))).isEqualTo(Detection.NONE);
    }

    @Test
    void v2Tcp4WithFieldsAndAChecksum() throws Exception {
        byte[] header = ProxyHeaders.withCrc(v2Tcp4(CLIENT, 56324, GATEWAY, 443,
                tlv(ProxyTlv.AUTHORITY, ascii("api.example.com")), tlv(ProxyTlv.NOOP, new byte[3]),
                tlv(ProxyTlv.CRC32C, new byte[4])));
        ByteBuf in = buf(concat(header, ascii("after")));
        ProxyHeader parsed = parse(in);
        assertThat(parsed.version()).isEqualTo(2);
        assertThat(parsed.source()).isEqualTo(new InetSocketAddress("192.0.2.7", 56324));
        assertThat(parsed.destination()).isEqualTo(new InetSocketAddress("198.51.100.1", 443));
        assertThat(new String(parsed.tlv(ProxyTlv.AUTHORITY), StandardCharsets.US_ASCII)).isEqualTo("api.example.com");
        assertThat(parsed.tlvs()).hasSize(3);
        assertThat(in.toString(StandardCharsets.US_ASCII)).isEqualTo("after");

        byte[] corrupted = header.clone();
        corrupted[16] = 10;
        assertMalformed(corrupted, "CRC32c does not match");
    }

    @Test
    void v2Tcp6LocalUnspecAndUnix() throws Exception {
        byte[] source = InetAddress.getByName("2001:db8::7").getAddress();
        byte[] dest = InetAddress.getByName("2001:db8::1").getAddress();
        ProxyHeader v6 = parse(buf(v2Tcp6(source, 1234, dest, 80)));
        assertThat(v6.source()).isEqualTo(new InetSocketAddress(InetAddress.getByName("2001:db8::7"), 1234));

        ProxyHeader local = parse(buf(v2(0x20, 0x11, new byte[12])));
        assertThat(local.local()).isTrue();
        assertThat(local.carriesAddress()).isFalse();
        ProxyHeader localNoBlock = parse(buf(v2(0x20, 0x00, new byte[0])));
        assertThat(localNoBlock.local()).isTrue();

        assertThat(parse(buf(v2(0x21, 0x00, new byte[0]))).carriesAddress()).isFalse();
        ProxyHeader unix = parse(buf(v2(0x21, 0x31, new byte[216])));
        assertThat(unix.carriesAddress()).isFalse();
    }

    @Test
    void malformedV2Headers() {
        assertMalformed(v2(0x31, 0x11, new byte[12]), "version 3");
        assertMalformed(v2(0x22, 0x11, new byte[12]), "command 2");
        assertMalformed(v2(0x21, 0x12, new byte[12]), "transport 2");
        assertMalformed(v2(0x21, 0x41, new byte[12]), "family 4");
        assertMalformed(v2(0x21, 0x11, new byte[11]), "block of 11 bytes");
        assertMalformed(v2(0x21, 0x21, new byte[12]), "block of 12 bytes");
        assertMalformed(v2Tcp4(CLIENT, 1, GATEWAY, 2, new byte[] {0x02, 0x00}), "cut");
        assertMalformed(v2Tcp4(CLIENT, 1, GATEWAY, 2, new byte[] {0x02, 0x00, 0x05, 'a'}), "runs past");
        assertMalformed(v2Tcp4(CLIENT, 1, GATEWAY, 2, tlv(ProxyTlv.CRC32C, new byte[2])), "CRC32c field of 2 bytes");
    }

    @Test
    void whatTheEncoderWritesReadsBack() throws Exception {
        InetSocketAddress client = new InetSocketAddress("192.0.2.7", 56324);
        InetSocketAddress v4 = new InetSocketAddress("198.51.100.1", 443);
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 8443);
        for (UpstreamProxyProtocol version : UpstreamProxyProtocol.values()) {
            ProxyHeader same = encodeAndParse(version, client, v4);
            assertThat(same.source()).isEqualTo(client);
            assertThat(same.destination()).isEqualTo(v4);
            ProxyHeader mixed = encodeAndParse(version, client, v6);
            assertThat(mixed.source().getAddress().getHostAddress()).isEqualTo("192.0.2.7");
            assertThat(mixed.source().getPort()).isEqualTo(56324);
            assertThat(mixed.destination()).isEqualTo(v6);
            ProxyHeader unknown = encodeAndParse(version, null, v4);
            assertThat(unknown.carriesAddress()).isFalse();
            assertThat(unknown.local()).isEqualTo(version == UpstreamProxyProtocol.V2);
        }
        ByteBuf text = ProxyHeaderEncoder.encode(ByteBufAllocator.DEFAULT, UpstreamProxyProtocol.V1, client, v4);
        assertThat(text.toString(StandardCharsets.US_ASCII)).isEqualTo("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\n");
        text.release();
    }

    private static ProxyHeader encodeAndParse(UpstreamProxyProtocol version, InetSocketAddress source,
            InetSocketAddress destination) throws MalformedProxyHeaderException {
        ByteBuf encoded = ProxyHeaderEncoder.encode(ByteBufAllocator.DEFAULT, version, source, destination);
        try {
            ProxyHeader header = parse(encoded);
            assertThat(encoded.isReadable()).isFalse();
            return header;
        } finally {
            encoded.release();
        }
    }

    private static ProxyHeader parse(ByteBuf in) throws MalformedProxyHeaderException {
        Detection detection = ProxyHeaderParser.detect(in);
        assertThat(detection).isIn(Detection.V1, Detection.V2);
        ProxyHeader header = ProxyHeaderParser.parse(in, detection);
        assertThat(header).isNotNull();
        return header;
    }

    private static void assertMalformed(byte[] bytes, String why) {
        ByteBuf in = buf(bytes);
        assertThatThrownBy(() -> ProxyHeaderParser.parse(in, ProxyHeaderParser.detect(in)))
                .isInstanceOf(MalformedProxyHeaderException.class).hasMessageContaining(why);
    }

    private static ByteBuf buf(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
