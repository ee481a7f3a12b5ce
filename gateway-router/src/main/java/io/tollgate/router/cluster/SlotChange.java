package io.tollgate.router.cluster;

import io.tollgate.router.host.Host;

/**
 * What happened at one host index in an update: {@code before} null for an added host,
 * {@code after} null for a removed one, both the same host for a change of health.
 */
record SlotChange(int slot, Host before, Host after) {
}
