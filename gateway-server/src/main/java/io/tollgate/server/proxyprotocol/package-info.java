/**
 * The PROXY protocol (HAProxy's, versions 1 and 2): reading the header an L4 balancer puts before
 * a downstream connection's first byte, and writing one before the first byte the TCP proxy sends
 * a host. Knows bytes and addresses only; the listener decides whom to trust.
 */
package io.tollgate.server.proxyprotocol;
