/**
 * The hosts of an {@code original_dst} cluster: made on demand from the address each redirected
 * connection was sent to, shared by every event loop, dropped when idle and bounded in number.
 * Clusters ({@code router.cluster}) hold one; it depends only on {@code router.host}.
 */
package io.tollgate.router.originaldst;
