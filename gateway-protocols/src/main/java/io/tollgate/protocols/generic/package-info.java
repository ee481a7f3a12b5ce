/**
 * The HTTP-to-RPC generic call as a library, before it is plugged into a route: an HTTP request
 * read into a call ({@link io.tollgate.protocols.generic.HttpCallRequest}), its parameter types
 * chosen ({@link io.tollgate.protocols.generic.MethodChooser}), the call written as a Dubbo
 * {@code $invoke} ({@link io.tollgate.protocols.generic.DubboGenericCalls}) or a SOFARPC request
 * ({@link io.tollgate.protocols.generic.SofaGenericCalls}) frame, and the provider's answer read
 * back into JSON or into the one error contract ({@link io.tollgate.protocols.generic.CallError}).
 */
package io.tollgate.protocols.generic;
