/**
 * What the downstream and the upstream HTTP/2 connection handlers share: {@link
 * io.tollgate.server.http2.Http2Multiplexer}, Netty's connection handler serving light streams
 * without child channels (read batches, writability, close, flow-control credit, one flush per
 * event-loop pass), and {@link io.tollgate.server.http2.Http2StreamFrameListener}, which hands it
 * the HEADERS and DATA its decoder accepted.
 */
package io.tollgate.server.http2;
