/**
 * The gateway as an xDS client: the ADS stream to the control plane, state of the world
 * ({@code StateOfTheWorldStream}) or incremental ({@code IncrementalStream}) behind one
 * {@code AdsStream}, the node it announces, reconnection with backoff, ACK and NACK, and what is
 * known of each resource received. {@link io.tollgate.xds.transport.XdsClient} drives it on one
 * control thread and hands every response to {@code io.tollgate.xds.translation}.
 */
package io.tollgate.xds.transport;
