package io.tollgate.protocols.bolt;

import io.tollgate.protocols.rpc.RpcFrame.Kind;

/** How each frame kind is written in Bolt's (type, cmdcode) pair, and back; other pairs are malformed. */
final class BoltKinds {

    private BoltKinds() {
    }

    /** The kind of a frame with this type and command code, or {@code null} for an unknown pair. */
    static Kind of(int type, int cmdCode) {
        if (type == BoltProtocol.TYPE_REQUEST) {
            return cmdCode == BoltProtocol.CMD_REQUEST ? Kind.REQUEST
                    : cmdCode == BoltProtocol.CMD_HEARTBEAT ? Kind.HEARTBEAT : null;
        }
        if (type == BoltProtocol.TYPE_ONEWAY) {
            return cmdCode == BoltProtocol.CMD_REQUEST ? Kind.ONEWAY : null;
        }
        if (type == BoltProtocol.TYPE_RESPONSE) {
            return cmdCode == BoltProtocol.CMD_RESPONSE ? Kind.RESPONSE
                    : cmdCode == BoltProtocol.CMD_HEARTBEAT ? Kind.HEARTBEAT_ACK : null;
        }
        return null;
    }

    static byte type(Kind kind) {
        return switch (kind) {
            case REQUEST, HEARTBEAT -> BoltProtocol.TYPE_REQUEST;
            case ONEWAY -> BoltProtocol.TYPE_ONEWAY;
            case RESPONSE, HEARTBEAT_ACK -> BoltProtocol.TYPE_RESPONSE;
        };
    }

    static short cmdCode(Kind kind) {
        return switch (kind) {
            case REQUEST, ONEWAY -> BoltProtocol.CMD_REQUEST;
            case RESPONSE -> BoltProtocol.CMD_RESPONSE;
            case HEARTBEAT, HEARTBEAT_ACK -> BoltProtocol.CMD_HEARTBEAT;
        };
    }
}
