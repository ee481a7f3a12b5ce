/**
 * The {@code ext_authz} stream filter: Envoy's external authorization, asking a policy service
 * (OPA, Authorino ...) whether each request may pass, over Envoy's
 * {@code envoy.service.auth.v3.Authorization} gRPC API or as an HTTP subrequest, for HTTP, gRPC,
 * Bolt and Dubbo requests alike.
 */
package io.tollgate.filters.extauth;
