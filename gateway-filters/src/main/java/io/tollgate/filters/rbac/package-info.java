/**
 * Role-based access control ({@code rbac}): named allow or deny policies on what a request asks
 * for (path, header, SNI, RPC service and method) and who asks (source address range, header,
 * verified certificate identity), with a shadow mode that only counts, as Envoy's RBAC filter.
 */
package io.tollgate.filters.rbac;
