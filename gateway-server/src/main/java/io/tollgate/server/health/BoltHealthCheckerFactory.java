package io.tollgate.server.health;

import io.tollgate.protocols.bolt.BoltCodec;

/** Registers {@code bolt}: a Bolt v1 heartbeat, acknowledged with status success, as a SOFA Bolt server does. */
public final class BoltHealthCheckerFactory extends RpcHealthCheckerFactory {

    public BoltHealthCheckerFactory() {
        super(BoltCodec.DEFAULTS);
    }
}
