/**
 * Cross-origin resource sharing ({@code cors}), as Envoy's CORS policy: preflights from allowed
 * origins answered by the gateway, actual requests' responses given the allowed origin.
 */
package io.tollgate.filters.cors;
