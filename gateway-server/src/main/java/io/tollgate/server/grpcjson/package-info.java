/**
 * gRPC and Triple JSON transcoding for {@code rpc_call} routes: the message types of a cluster's
 * services, from its server reflection or a descriptor set file, cached as immutable snapshots
 * built off the event loops; JSON to a length-prefixed protobuf message and back (protobuf's own
 * JSON mapping); the gRPC status of an answer as an HTTP status. The exchange that sends the call
 * on the gateway's HTTP/2 upstream connections is {@code server.http.GrpcJsonExchange}.
 */
package io.tollgate.server.grpcjson;
