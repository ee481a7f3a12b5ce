package io.tollgate.server.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a PROXY protocol header (HAProxy's specification, versions 1 and 2) from the start of a
 * connection's bytes, strictly: a v1 line of at most {@value #V1_MAX_LENGTH} bytes ending in CRLF
 * with single spaces, literal addresses of the family named and ports 0..65535; a v2 header of
 * version 2, command {@code LOCAL} or {@code PROXY}, a stream transport, an address block as long
 * as its family needs and fields that end exactly where the header does (a CRC32c field, when
 * present, must match). Anything else is malformed. Stateless: the caller keeps the bytes until
 * {@link #parse} has the whole header.
 */
public final class ProxyHeaderParser {

    /** The longest v1 header, CRLF included. */
    public static final int V1_MAX_LENGTH = 107;
    /** The bytes of a v2 header before its address block. */
    static final int V2_FIXED_LENGTH = 16;
    static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final byte[] V1_SIGNATURE = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final int INET_BLOCK = 12;
    private static final int INET6_BLOCK = 36;
    private static final int UNIX_BLOCK = 216;

    /** What the first bytes of a connection are. */
    public enum Detection {
        /** Too few bytes to tell. */
        NEED_MORE,
        /** A v1 header begins. */
        V1,
        /** A v2 header begins. */
        V2,
        /** Not a PROXY protocol header. */
        NONE
    }

    private ProxyHeaderParser() {
    }

    /** Whether the readable bytes of {@code in} begin a v1 or v2 header; reads nothing. */
    public static Detection detect(ByteBuf in) {
        int readable = in.readableBytes();
        if (startsLike(V2_SIGNATURE, in)) {
            return readable >= V2_SIGNATURE.length ? Detection.V2 : Detection.NEED_MORE;
        }
        if (startsLike(V1_SIGNATURE, in)) {
            return readable >= V1_SIGNATURE.length ? Detection.V1 : Detection.NEED_MORE;
        }
        return Detection.NONE;
    }

    /**
     * Reads the header {@code in} begins with ({@link #detect} said which) and moves past it.
     *
     * @return the header, or null when more bytes are needed (nothing read then)
     * @throws MalformedProxyHeaderException when the bytes break the specification
     */
    public static ProxyHeader parse(ByteBuf in, Detection version) throws MalformedProxyHeaderException {
        return version == Detection.V2 ? parseV2(in) : parseV1(in);
    }

    private static boolean startsLike(byte[] signature, ByteBuf in) {
        int n = Math.min(signature.length, in.readableBytes());
        int start = in.readerIndex();
        for (int i = 0; i < n; i++) {
            if (in.getByte(start + i) != signature[i]) {
                return false;
            }
        }
        return true;
    }

    private static ProxyHeader parseV1(ByteBuf in) throws MalformedProxyHeaderException {
        int start = in.readerIndex();
        int searched = Math.min(in.readableBytes(), V1_MAX_LENGTH);
        int lf = in.indexOf(start, start + searched, (byte) '\n');
        if (lf < 0) {
            if (searched == V1_MAX_LENGTH) {
                throw new MalformedProxyHeaderException("v1 header without CRLF in its first " + V1_MAX_LENGTH + " bytes");
            }
            return null;
        }
        if (lf == start || in.getByte(lf - 1) != '\r') {
            throw new MalformedProxyHeaderException("v1 header ends in a bare LF");
        }
        String line = in.toString(start, lf - 1 - start, StandardCharsets.US_ASCII);
        in.readerIndex(lf + 1);
        String[] parts = line.split(" ", -1);
        if (parts.length >= 2 && parts[1].equals("UNKNOWN")) {
            return new ProxyHeader(1, false, null, null, List.of());
        }
        boolean v4 = parts.length > 1 && parts[1].equals("TCP4");
        if (!v4 && (parts.length < 2 || !parts[1].equals("TCP6"))) {
            throw new MalformedProxyHeaderException("v1 protocol is not TCP4, TCP6 or UNKNOWN: " + printable(line));
        }
        if (parts.length != 6) {
            throw new MalformedProxyHeaderException("v1 header of " + parts.length + " fields (expected 6): "
                    + printable(line));
        }
        InetAddress source = v1Address(parts[2], v4);
        InetAddress destination = v1Address(parts[3], v4);
        return new ProxyHeader(1, false, new InetSocketAddress(source, v1Port(parts[4])),
                new InetSocketAddress(destination, v1Port(parts[5])), List.of());
    }

    private static InetAddress v1Address(String text, boolean v4) throws MalformedProxyHeaderException {
        boolean valid = v4 ? NetUtil.isValidIpV4Address(text)
                : text.indexOf('%') < 0 && text.indexOf('[') < 0 && NetUtil.isValidIpV6Address(text);
        byte[] bytes = valid ? NetUtil.createByteArrayFromIpAddressString(text) : null;
        if (bytes == null || bytes.length != (v4 ? 4 : 16)) {
            throw new MalformedProxyHeaderException("v1 address '" + printable(text) + "' is not an "
                    + (v4 ? "IPv4" : "IPv6") + " address");
        }
        return address(bytes);
    }

    private static int v1Port(String text) throws MalformedProxyHeaderException {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(text) > 65535) {
            throw new MalformedProxyHeaderException("v1 port '" + printable(text) + "' (expected 0..65535)");
        }
        return Integer.parseInt(text);
    }

    private static ProxyHeader parseV2(ByteBuf in) throws MalformedProxyHeaderException {
        if (in.readableBytes() < V2_FIXED_LENGTH) {
            return null;
        }
        int start = in.readerIndex();
        int versionCommand = in.getUnsignedByte(start + 12);
        if ((versionCommand & 0xF0) != 0x20) {
            throw new MalformedProxyHeaderException("v2 header of version " + (versionCommand >> 4) + " (expected 2)");
        }
        int command = versionCommand & 0x0F;
        if (command > 1) {
            throw new MalformedProxyHeaderException("v2 command " + command + " (expected 0 LOCAL or 1 PROXY)");
        }
        int length = in.getUnsignedShort(start + 14);
        if (in.readableBytes() < V2_FIXED_LENGTH + length) {
            return null;
        }
        ByteBuf header = in.readSlice(V2_FIXED_LENGTH + length);
        if (command == 0) {
            return new ProxyHeader(2, true, null, null, List.of());
        }
        int familyTransport = header.getUnsignedByte(13);
        int family = familyTransport >> 4;
        int transport = familyTransport & 0x0F;
        if (family == 0) {
            return new ProxyHeader(2, false, null, null, List.of());
        }
        if (family > 3 || transport != 1) {
            throw new MalformedProxyHeaderException("v2 family " + family + " and transport " + transport
                    + " (expected INET, INET6 or UNIX over STREAM on a TCP connection)");
        }
        int block = family == 1 ? INET_BLOCK : family == 2 ? INET6_BLOCK : UNIX_BLOCK;
        if (length < block) {
            throw new MalformedProxyHeaderException("v2 address block of " + length + " bytes (expected at least "
                    + block + ")");
        }
        List<ProxyTlv> tlvs = tlvs(header, V2_FIXED_LENGTH + block);
        if (family == 3) {
            return new ProxyHeader(2, false, null, null, tlvs);
        }
        int half = (block - 4) / 2;
        InetSocketAddress source = new InetSocketAddress(address(bytes(header, V2_FIXED_LENGTH, half)),
                header.getUnsignedShort(V2_FIXED_LENGTH + 2 * half));
        InetSocketAddress destination = new InetSocketAddress(address(bytes(header, V2_FIXED_LENGTH + half, half)),
                header.getUnsignedShort(V2_FIXED_LENGTH + 2 * half + 2));
        return new ProxyHeader(2, false, source, destination, tlvs);
    }

    private static List<ProxyTlv> tlvs(ByteBuf header, int from) throws MalformedProxyHeaderException {
        List<ProxyTlv> tlvs = new ArrayList<>(2);
        int at = from;
        int end = header.writerIndex();
        while (at < end) {
            if (end - at < 3) {
                throw new MalformedProxyHeaderException("v2 field header cut at the end of the header");
            }
            int type = header.getUnsignedByte(at);
            int length = header.getUnsignedShort(at + 1);
            if (at + 3 + length > end) {
                throw new MalformedProxyHeaderException("v2 field of type 0x" + Integer.toHexString(type) + " and "
                        + length + " bytes runs past the end of the header");
            }
            if (type == ProxyTlv.CRC32C) {
                checkCrc(header, at + 3, length);
            }
            tlvs.add(new ProxyTlv(type, bytes(header, at + 3, length)));
            at += 3 + length;
        }
        return tlvs;
    }

    /** The CRC32c of the whole header, its own value taken as zeros, must be the one it carries. */
    private static void checkCrc(ByteBuf header, int valueAt, int length) throws MalformedProxyHeaderException {
        if (length != 4) {
            throw new MalformedProxyHeaderException("v2 CRC32c field of " + length + " bytes (expected 4)");
        }
        byte[] whole = bytes(header, 0, header.writerIndex());
        long carried = header.getUnsignedInt(valueAt);
        for (int i = 0; i < 4; i++) {
            whole[valueAt + i] = 0;
        }
        CRC32C crc = new CRC32C();
        crc.update(whole);
        if (crc.getValue() != carried) {
            throw new MalformedProxyHeaderException("v2 CRC32c does not match the header");
        }
    }

    private static byte[] bytes(ByteBuf buf, int index, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        return bytes;
    }

    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address of " + bytes.length + " bytes", e);
        }
    }

    /** {@code text} with control characters replaced, for a log line. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c < 0x20 || c > 0x7e ? '?' : c);
        }
        return out.toString();
    }
}
