package io.tollgate.protocols.dubbo;

import java.util.Map;

/**
 * What routing reads of a Dubbo call on every request, without building the attachments map or
 * any string it does not need: the service path, method and parameter descriptor of the body, the
 * {@code interface} and {@code timeout} attachments (picked out while the map was checked once),
 * and where the rest lies: the dubbo version and service version, read when asked for, and the
 * attachments map, scanned where it lies for any other lookup. Valid only while its frame is.
 */
final class DubboCallHead {

    private final Hessian2Reader body;
    private final int dubboVersionAt;
    private final String path;
    private final int versionAt;
    private final String method;
    private final String parameterTypes;
    private final int attachmentsAt;
    private final String interfaceName;
    private final String timeout;

    /**
     * @param body a reader of the body that stepped over the arguments, knowing the class
     *     definitions they made, so that a fork of it reads any field
     * @param dubboVersionAt the absolute index of the dubbo version string
     * @param versionAt the absolute index of the service version string
     * @param attachmentsAt the absolute index of the attachments map, or -1 when the body has none
     * @param interfaceName the {@code interface} attachment, or null
     * @param timeout the {@code timeout} attachment, or null
     */
    DubboCallHead(Hessian2Reader body, int dubboVersionAt, String path, int versionAt, String method,
            String parameterTypes, int attachmentsAt, String interfaceName, String timeout) {
        this.body = body;
        this.dubboVersionAt = dubboVersionAt;
        this.path = path;
        this.versionAt = versionAt;
        this.method = method;
        this.parameterTypes = parameterTypes;
        this.attachmentsAt = attachmentsAt;
        this.interfaceName = interfaceName;
        this.timeout = timeout;
    }

    /** The service to route on: the {@code interface} attachment when there is one, else the path. */
    String service() {
        return interfaceName != null ? interfaceName : path;
    }

    String method() {
        return method;
    }

    /** An attachment, with the body's fields standing in as in {@link DubboInvocation#attachment}. */
    String attachment(String name) {
        String value;
        if (name.equals(DubboProtocol.ATTACHMENT_INTERFACE)) {
            value = interfaceName;
        } else if (name.equals(DubboProtocol.ATTACHMENT_TIMEOUT)) {
            value = timeout;
        } else {
            value = attachmentsAt < 0 ? null : body.forkAt(attachmentsAt).findInStringMap(name);
        }
        if (value != null || !DubboInvocation.isBodyField(name)) {
            return value;
        }
        return DubboInvocation.bodyField(name, dubboVersion(), path, version());
    }

    /** The whole invocation: these fields and every string attachment, read into a map. */
    DubboInvocation invocation() {
        return new DubboInvocation(dubboVersion(), path, version(), method, parameterTypes,
                attachmentsAt < 0 ? Map.of() : body.forkAt(attachmentsAt).readStringMap());
    }

    /** The absolute index of the attachments map, or -1 when the body has none. */
    int attachmentsAt() {
        return attachmentsAt;
    }

    /** Where the attachments map's parts lie, as {@link Hessian2Reader#mapLayout} says; null when it is null. */
    int[] attachmentsLayout(String[] keys) {
        return body.forkAt(attachmentsAt).mapLayout(keys);
    }

    private String dubboVersion() {
        return body.forkAt(dubboVersionAt).readString();
    }

    private String version() {
        return body.forkAt(versionAt).readString();
    }
}
