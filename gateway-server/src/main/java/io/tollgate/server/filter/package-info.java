/**
 * Runs the stream filters of {@code io.tollgate.core.filter} for every protocol: the chains a
 * configuration compiles to ({@link io.tollgate.server.filter.ListenerFilters}, one per
 * listener, with the routes' overrides), and the protocol-neutral walk of one request through its
 * chain ({@link io.tollgate.server.filter.FilterRun}), which each protocol's package extends with
 * how it goes on and how it answers.
 */
package io.tollgate.server.filter;
