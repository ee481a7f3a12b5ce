/**
 * Fault injection ({@code fault}): delays and aborts a share of requests, chosen by percentage
 * and by request header, to test how callers cope, as Envoy's fault filter does.
 */
package io.tollgate.filters.fault;
