package io.tollgate.protocols.dubbo;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;

/** Hessian2 inputs built by hand, byte form by byte form, as the spec draws them. */
final class Hessian2Bytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Appends raw bytes (each an unsigned byte value). */
    Hessian2Bytes bytes(int... values) {
        for (int value : values) {
            out.write(value);
        }
        return this;
    }

    Hessian2Bytes bytes(byte[] values) {
        out.writeBytes(values);
        return this;
    }

    /** A string of fewer than 1024 chars in its compact (0x00-0x1f) or medium (0x30-0x33) form. */
    Hessian2Bytes string(String value) {
        int length = value.length();
        if (length <= 0x1f) {
            out.write(length);
        } else if (length <= 0x3ff) {
            out.write(0x30 + (length >> 8));
            out.write(length & 0xff);
        } else {
            throw new IllegalArgumentException("string of " + length + " chars (expected: < 1024)");
        }
        return utf8(value);
    }

    /** The UTF-8 bytes of {@code value} with no code before them. */
    Hessian2Bytes utf8(String value) {
        out.writeBytes(value.getBytes(UTF_8));
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    /** A Dubbo request body with these leading strings, the argument bytes as they are, and no attachments. */
    static Hessian2Bytes call(String service, String method, String descriptor) {
        return new Hessian2Bytes().string("2.0.2").string(service).string("1.0").string(method).string(descriptor);
    }
}
