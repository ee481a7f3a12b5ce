/**
 * {@code strict_dns} and {@code logical_dns} clusters: their names resolved again and again with
 * Netty's asynchronous resolver on a loop of its own, the answers applied as new host sets on the
 * control thread.
 */
package io.tollgate.server.dns;
