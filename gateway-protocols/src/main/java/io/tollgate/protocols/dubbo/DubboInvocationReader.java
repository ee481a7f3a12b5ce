package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;

/**
 * Reads the routing fields of a hessian2 Dubbo request body: five strings, then as many argument
 * values as the parameter descriptor names, skipped without decoding, then the attachments map. A
 * body that ends right after the arguments (no attachments) has none.
 */
final class DubboInvocationReader {

    /** The attachments every request is routed by, picked out while the map is checked. */
    private static final String[] PICKED_ATTACHMENTS =
            {DubboProtocol.ATTACHMENT_INTERFACE, DubboProtocol.ATTACHMENT_TIMEOUT};

    private DubboInvocationReader() {
    }

    /**
     * Reads the leading fields of the body of {@code length} bytes of {@code buf} from absolute
     * {@code index} and steps over the arguments, leaving the attachments where they lie.
     *
     * @throws DubboCodecException (without request id) when the body or its descriptor is malformed
     */
    static DubboCallHead readHead(ByteBuf buf, int index, int length) {
        Hessian2Reader in = new Hessian2Reader(buf, index, length, DubboProtocol.MAX_HESSIAN2_DEPTH);
        int dubboVersionAt = in.index();
        in.skipStringOrNull();
        String path = in.readString();
        int versionAt = in.index();
        in.skipStringOrNull();
        String method = in.readString();
        String parameterTypes = in.readString();
        int arguments = argumentCount(parameterTypes);
        for (int i = 0; i < arguments; i++) {
            in.skipValue();
        }
        if (in.isAtEnd()) {
            return new DubboCallHead(in, dubboVersionAt, path, versionAt, method, parameterTypes, -1, null, null);
        }
        int attachmentsAt = in.index();
        String[] picked = new String[2];
        in.scanStringMap(PICKED_ATTACHMENTS, picked, false);
        return new DubboCallHead(in, dubboVersionAt, path, versionAt, method, parameterTypes, attachmentsAt,
                picked[0], picked[1]);
    }

    /**
     * How many arguments a JVM method descriptor's parameter list names: one per primitive letter,
     * {@code Lclass;} or array of either ({@code [I}, {@code [[Ljava/lang/String;}).
     *
     * @throws DubboCodecException when it is not such a list
     */
    static int argumentCount(String descriptor) {
        if (descriptor == null) {
            return 0;
        }
        int count = 0;
        int at = 0;
        int length = descriptor.length();
        while (at < length) {
            while (at < length && descriptor.charAt(at) == '[') {
                at++;
            }
            if (at == length) {
                throw malformed(descriptor, "an array without element type");
            }
            char type = descriptor.charAt(at);
            if (type == 'L') {
                int semicolon = descriptor.indexOf(';', at);
                if (semicolon <= at + 1) {
                    throw malformed(descriptor, "a class type without name or ';'");
                }
                at = semicolon + 1;
            } else if ("ZBCSIJFD".indexOf(type) >= 0) {
                at++;
            } else {
                throw malformed(descriptor, "type letter '" + type + "'");
            }
            count++;
        }
        return count;
    }

    private static DubboCodecException malformed(String descriptor, String what) {
        return new DubboCodecException("parameter descriptor \"" + descriptor + "\": " + what
                + " (expected: JVM field descriptors such as I, [J or Ljava/lang/String;)");
    }
}
