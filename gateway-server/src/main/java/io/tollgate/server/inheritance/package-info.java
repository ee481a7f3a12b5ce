/**
 * What a gateway process inherits from the one it replaces in a hot restart: listening sockets,
 * the admin socket and counters ({@link io.tollgate.server.inheritance.Inheritance}). The gateway
 * starts on it; {@code io.tollgate.server.upgrade}, which runs the handover, makes it, so the
 * gateway does not depend on the handover.
 */
package io.tollgate.server.inheritance;
