package io.tollgate.protocols.dubbo;

/**
 * What routing reads of a Dubbo call on every request, without building the attachments map: the
 * leading fields of the body, the {@code interface} and {@code timeout} attachments (picked out
 * while the map was checked once), and a reader positioned at the attachments for any other
 * lookup, which scans them where they lie. Valid only while its frame is.
 *
 * @param attachments a reader that stepped over the arguments (knowing the class definitions they
 *     made), or null when the body has no attachments
 * @param attachmentsIndex the absolute index of the attachments map in the frame's buffer
 * @param interfaceName the {@code interface} attachment, or null
 * @param timeout the {@code timeout} attachment, or null
 */
record DubboCallHead(String dubboVersion, String path, String version, String method, String parameterTypes,
        Hessian2Reader attachments, int attachmentsIndex, String interfaceName, String timeout) {

    /** An attachment, with the body's fields standing in as in {@link DubboInvocation#attachment}. */
    String attachment(String name) {
        String value;
        if (name.equals(DubboProtocol.ATTACHMENT_INTERFACE)) {
            value = interfaceName;
        } else if (name.equals(DubboProtocol.ATTACHMENT_TIMEOUT)) {
            value = timeout;
        } else {
            value = attachments == null ? null : attachments.forkAt(attachmentsIndex).findInStringMap(name);
        }
        return value != null ? value : DubboInvocation.bodyField(name, dubboVersion, path, version);
    }

    /** The service routed on: the {@code interface} attachment when there is one, else the path. */
    String service() {
        return interfaceName != null ? interfaceName : path;
    }
}
