package io.tollgate.server.proxyprotocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** PROXY protocol headers built by hand, byte by byte, as a balancer sends them: the tests' own encoder. */
final class ProxyHeaders {

    static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private ProxyHeaders() {
    }

    /** A v1 header: {@code line} and CRLF. */
    static byte[] v1(String line) {
        return (line + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** A v2 PROXY TCP over IPv4 header from {@code source:sourcePort} to {@code dest:destPort}, then {@code tlvs}. */
    static byte[] v2Tcp4(int[] source, int sourcePort, int[] dest, int destPort, byte[]... tlvs) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (int b : source) {
            block.write(b);
        }
        for (int b : dest) {
            block.write(b);
        }
        short16(block, sourcePort);
        short16(block, destPort);
        for (byte[] tlv : tlvs) {
            block.writeBytes(tlv);
        }
        return v2(0x21, 0x11, block.toByteArray());
    }

    /** A v2 PROXY TCP over IPv6 header, the addresses given as 16 bytes each. */
    static byte[] v2Tcp6(byte[] source, int sourcePort, byte[] dest, int destPort) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(source);
        block.writeBytes(dest);
        short16(block, sourcePort);
        short16(block, destPort);
        return v2(0x21, 0x21, block.toByteArray());
    }

    /** A v2 header with the given version-command and family-transport bytes and address block. */
    static byte[] v2(int versionCommand, int familyTransport, byte[] block) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIGNATURE);
        out.write(versionCommand);
        out.write(familyTransport);
        short16(out, block.length);
        out.writeBytes(block);
        return out.toByteArray();
    }

    /** A TLV of {@code type} holding {@code value}. */
    static byte[] tlv(int type, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        short16(out, value.length);
        out.writeBytes(value);
        return out.toByteArray();
    }

    /** {@code header}, whose last field is a CRC32c TLV of zeros, with the right checksum written in. */
    static byte[] withCrc(byte[] header) {
        CRC32C crc = new CRC32C();
        crc.update(header);
        long value = crc.getValue();
        byte[] out = header.clone();
        for (int i = 0; i < 4; i++) {
            out[out.length - 4 + i] = (byte) (value >>> (24 - 8 * i));
        }
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static void short16(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value & 0xff);
    }
}
