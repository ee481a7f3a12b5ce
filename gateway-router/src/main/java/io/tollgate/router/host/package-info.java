/**
 * The upstream host as clusters hold it and load balancers pick it: its address, weight, labels,
 * health and ejection, and its active-request count in its cluster's dense
 * {@link io.tollgate.router.host.ActiveRequests}. Clusters ({@code router.cluster}) make and
 * replace hosts; load balancers ({@code router.lb}) only read them, so both depend on this package
 * and neither on the other's back.
 */
package io.tollgate.router.host;
