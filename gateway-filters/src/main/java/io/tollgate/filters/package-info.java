/**
 * The built-in stream filters, one package each (fault injection, RBAC, local rate limiting,
 * mirroring, header changes and CORS). Each is written against the SPI of
 * {@code io.tollgate.core.filter} alone, as a filter outside the tree would be, and registered in
 * this module's {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}.
 */
package io.tollgate.filters;
