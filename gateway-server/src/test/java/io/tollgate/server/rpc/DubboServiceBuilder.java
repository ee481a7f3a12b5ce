package io.tollgate.server.rpc;

/**
 * What describes both ends of a Dubbo call in the tests, {@link DubboProvider.Builder} and
 * {@link DubboConsumer.Builder}: the protocol, and the group and version of the service.
 *
 * @param <B> the builder itself, returned by every setter
 */
public abstract class DubboServiceBuilder<B extends DubboServiceBuilder<B>> {

    String protocol = "dubbo";
    String group;
    String version;

    /** Over {@code protocol}, {@code "dubbo"} unless set; {@code "tri"} is Triple (HTTP/2). */
    public B protocol(String protocol) {
        this.protocol = protocol;
        return self();
    }

    /** The service of Dubbo group {@code group}. */
    public B group(String group) {
        this.group = group;
        return self();
    }

    /** The service of version {@code version}. */
    public B version(String version) {
        this.version = version;
        return self();
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
