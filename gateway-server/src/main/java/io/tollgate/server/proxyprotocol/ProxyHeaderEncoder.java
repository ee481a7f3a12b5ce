package io.tollgate.server.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.NetUtil;
import io.tollgate.core.config.UpstreamProxyProtocol;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Writes the PROXY protocol header that tells an upstream host who the client is: {@code TCP4}
 * when both addresses are IPv4, else {@code TCP6} (an IPv4 address written IPv4-mapped); when an
 * address is not an IP one, v1 {@code UNKNOWN} and v2 {@code LOCAL}, so that the host uses the
 * connection's own addresses.
 */
public final class ProxyHeaderEncoder {

    private ProxyHeaderEncoder() {
    }

    /** The header of {@code version} for a client at {@code source} that connected to {@code destination}. */
    public static ByteBuf encode(ByteBufAllocator alloc, UpstreamProxyProtocol version, SocketAddress source,
            SocketAddress destination) {
        InetSocketAddress from = ip(source);
        InetSocketAddress to = ip(destination);
        boolean known = from != null && to != null;
        boolean v4 = known && from.getAddress() instanceof Inet4Address && to.getAddress() instanceof Inet4Address;
        return version == UpstreamProxyProtocol.V1 ? v1(alloc, known, v4, from, to) : v2(alloc, known, v4, from, to);
    }

    private static InetSocketAddress ip(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() != null ? inet : null;
    }

    private static ByteBuf v1(ByteBufAllocator alloc, boolean known, boolean v4, InetSocketAddress from,
            InetSocketAddress to) {
        String line = !known ? "PROXY UNKNOWN\r\n"
                : "PROXY " + (v4 ? "TCP4 " : "TCP6 ") + text(from, v4) + " " + text(to, v4) + " " + from.getPort()
                        + " " + to.getPort() + "\r\n";
        return alloc.buffer(line.length()).writeBytes(line.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(InetSocketAddress address, boolean v4) {
        return v4 ? address.getAddress().getHostAddress() : NetUtil.bytesToIpAddress(bytes(address, false));
    }

    private static ByteBuf v2(ByteBufAllocator alloc, boolean known, boolean v4, InetSocketAddress from,
            InetSocketAddress to) {
        int block = !known ? 0 : v4 ? 12 : 36;
        ByteBuf out = alloc.buffer(ProxyHeaderParser.V2_FIXED_LENGTH + block);
        out.writeBytes(ProxyHeaderParser.V2_SIGNATURE);
        out.writeByte(known ? 0x21 : 0x20);
        out.writeByte(!known ? 0x00 : v4 ? 0x11 : 0x21);
        out.writeShort(block);
        if (known) {
            out.writeBytes(bytes(from, v4)).writeBytes(bytes(to, v4));
            out.writeShort(from.getPort()).writeShort(to.getPort());
        }
        return out;
    }

    /** The address's bytes: 4 when {@code v4}, else 16, an IPv4 address mapped into IPv6. */
    private static byte[] bytes(InetSocketAddress address, boolean v4) {
        byte[] raw = address.getAddress().getAddress();
        if (v4 || raw.length == 16) {
            return raw;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(raw, 0, mapped, 12, 4);
        return mapped;
    }
}
