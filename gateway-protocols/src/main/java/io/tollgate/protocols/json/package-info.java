/**
 * Exact JSON to and from hessian2 with no class of the service on the gateway's class path: a call's
 * JSON arguments written as the values of their declared Java types ({@link io.tollgate.protocols.json.JsonToHessian2}),
 * and any hessian2 answer turned into JSON ({@link io.tollgate.protocols.json.Hessian2ToJson}). Numbers
 * stay exact both ways ({@link io.tollgate.protocols.json.ExactJson}): a {@code long}, a
 * {@code BigInteger} or a {@code BigDecimal} keeps every digit. See {@code docs/rest-to-rpc.md}.
 */
package io.tollgate.protocols.json;
