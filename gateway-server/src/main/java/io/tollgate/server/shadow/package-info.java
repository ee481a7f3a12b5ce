/**
 * Shadowing (request mirroring), one for every protocol: a shadow copy of a request
 * ({@link io.tollgate.server.shadow.Shadow}), where it goes ({@link io.tollgate.server.shadow.ShadowTarget})
 * and what became of it; each protocol's part copies the request and sends the copy on its own
 * connections.
 */
package io.tollgate.server.shadow;
