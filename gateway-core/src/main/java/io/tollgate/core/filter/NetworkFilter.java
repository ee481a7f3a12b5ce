package io.tollgate.core.filter;

import io.netty.buffer.ByteBuf;

/**
 * A filter of one downstream connection's bytes (Envoy's and MOSN's network filters), made by
 * {@link NetworkFilterFactory} per connection, so it may keep per-connection state in fields.
 * Its methods run on the connection's event loop and MUST NOT block: asynchronous work returns
 * {@link NetworkFilterStatus#STOP} and later calls {@link NetworkConnection#resume()}.
 *
 * <p>The buffers a filter sees belong to the chain: a filter reads them (from their reader index,
 * without moving it) and MUST NOT release or keep them.
 */
public interface NetworkFilter {

    /** The connection opened; a filter may close it, or hold it before any byte is read. */
    default NetworkFilterStatus onConnect(NetworkConnection connection) {
        return NetworkFilterStatus.CONTINUE;
    }

    /** Bytes read from the client, on their way to the next filter and the listener's protocol. */
    default NetworkFilterStatus onRead(NetworkConnection connection, ByteBuf data) {
        return NetworkFilterStatus.CONTINUE;
    }

    /** Bytes on their way to the client; seen, not held. */
    default void onWrite(NetworkConnection connection, ByteBuf data) {
    }

    /** The connection closed; the last call this filter gets. */
    default void onClose(NetworkConnection connection) {
    }
}
