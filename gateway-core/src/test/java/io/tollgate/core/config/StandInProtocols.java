package io.tollgate.core.config;

import io.tollgate.core.extension.ProtocolFactory;

/**
 * Listener protocols without settings under the real names, registered for core's tests only (the
 * real ones live in gateway-protocols, out of this module's reach), so that these tests can load
 * listeners. What each real protocol reads is tested where it lives.
 */
public abstract class StandInProtocols implements ProtocolFactory {

    private final String name;

    StandInProtocols(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ProtocolOptions defaults() {
        return ProtocolOptions.NONE;
    }

    /** {@code http1}, the default protocol. */
    public static final class Http1 extends StandInProtocols {
        public Http1() {
            super("http1");
        }
    }

    /** {@code h2c}. */
    public static final class H2c extends StandInProtocols {
        public H2c() {
            super("h2c");
        }
    }

    /** {@code bolt}. */
    public static final class Bolt extends StandInProtocols {
        public Bolt() {
            super("bolt");
        }
    }

    /** {@code dubbo}. */
    public static final class Dubbo extends StandInProtocols {
        public Dubbo() {
            super("dubbo");
        }
    }
}
