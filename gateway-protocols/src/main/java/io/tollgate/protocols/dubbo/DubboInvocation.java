package io.tollgate.protocols.dubbo;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * What the gateway reads of a Dubbo call to route it: the leading fields of the request body and
 * its string attachments, never the arguments. Read once per frame by {@link DubboFrame#invocation()}.
 *
 * @param dubboVersion the dubbo protocol version the consumer speaks ({@code 2.0.2}), or null
 * @param path the service path, which Dubbo consumers set to the interface name, or null
 * @param version the service version, or null when the consumer wrote none
 * @param method the method name, or null
 * @param parameterTypes the JVM descriptor of the parameter types, e.g. {@code Ljava/lang/String;I}, or null
 * @param attachments the attachments whose key and value are both strings, unmodifiable
 */
public record DubboInvocation(String dubboVersion, String path, String version, String method, String parameterTypes,
        Map<String, String> attachments) {

    public DubboInvocation {
        requireNonNull(attachments, "attachments");
    }

    /** The service to route on: the {@code interface} attachment when there is one, else the path. */
    public String service() {
        String service = attachments.get(DubboProtocol.ATTACHMENT_INTERFACE);
        return service != null ? service : path;
    }

    /**
     * An attachment as the provider's invocation sees it: the attachment when present, else, for
     * {@code path}, {@code version} and {@code dubbo}, the field of the body that Dubbo's decoder
     * turns into that attachment before the attachments override it. So {@code attachment("version")}
     * is the version the provider looks the service up with, whether or not the consumer attached it.
     */
    public String attachment(String name) {
        String value = attachments.get(name);
        return value != null ? value : bodyField(name, dubboVersion, path, version);
    }

    /** Whether a field of the body stands in for attachment {@code name} when it is absent. */
    static boolean isBodyField(String name) {
        return name.equals(DubboProtocol.ATTACHMENT_PATH) || name.equals(DubboProtocol.ATTACHMENT_VERSION)
                || name.equals(DubboProtocol.ATTACHMENT_DUBBO_VERSION);
    }

    /** The body's field that stands in for attachment {@code name} when it is absent, or null. */
    static String bodyField(String name, String dubboVersion, String path, String version) {
        return switch (name) {
            case DubboProtocol.ATTACHMENT_PATH -> path;
            case DubboProtocol.ATTACHMENT_VERSION -> version;
            case DubboProtocol.ATTACHMENT_DUBBO_VERSION -> dubboVersion;
            default -> null;
        };
    }
}
