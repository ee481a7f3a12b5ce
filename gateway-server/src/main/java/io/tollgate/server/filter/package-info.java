/**
 * Runs the stream filters of {@code io.tollgate.core.filter} for every protocol: the chains a
 * configuration compiles to ({@link io.tollgate.server.filter.ListenerFilters}, one per
 * listener, with the routes' overrides), and the protocol-neutral walk of one request through its
 * chain ({@link io.tollgate.server.filter.FilterRun}), to which each protocol's request says how
 * it goes on and how it answers ({@link io.tollgate.server.filter.FilteredRequest}).
 */
package io.tollgate.server.filter;
