/**
 * The stream filter SPI: per-request extensions that run between routing and the upstream, the
 * same for HTTP/1.1, HTTP/2 (gRPC), Bolt, Dubbo and plug-in protocols. A
 * {@link io.tollgate.core.filter.StreamFilterFactory} is found by name in the start-up
 * {@link io.tollgate.core.extension.ExtensionRegistry}, reads its settings once when the
 * configuration is loaded, and makes one {@link io.tollgate.core.filter.StreamFilter} per chain
 * (a listener's, or a route's override); the filter sees each request through a
 * {@link io.tollgate.core.filter.StreamFilterContext} and answers in words every protocol maps to
 * its own form.
 */
package io.tollgate.core.filter;
