/**
 * Shadowing (request mirroring) shared by every protocol: where a shadow copy of a request goes
 * ({@link io.tollgate.server.shadow.ShadowTarget}); each protocol sends the copy itself.
 */
package io.tollgate.server.shadow;
