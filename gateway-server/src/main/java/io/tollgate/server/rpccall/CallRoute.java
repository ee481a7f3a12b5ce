package io.tollgate.server.rpccall;

import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.generic.HttpCallRequest;
import io.tollgate.protocols.generic.SofaGenericCalls;

/**
 * An HTTP request's call as the RPC listeners' routing sees a call of its service, so that a per-service
 * template finds the call's service as it finds a Bolt or Dubbo call's: the path
 * {@code /{service}/{method}} (SOFARPC's service by its unique name {@code interface:version[:uniqueId]}),
 * Dubbo's {@code group} and {@code version} as headers.
 */
record CallRoute(HttpCallRequest call, String path) implements RouteRequest {

    static CallRoute of(RpcCallConfig.Protocol protocol, HttpCallRequest call) {
        String service = protocol == RpcCallConfig.Protocol.SOFA
                ? SofaGenericCalls.uniqueName(call.service(), call.version(), call.uniqueId()) : call.service();
        return new CallRoute(call, "/" + service + "/" + call.method());
    }

    @Override
    public String authority() {
        return call.service();
    }

    @Override
    public String header(String name) {
        return switch (name) {
            case "group" -> call.group();
            case "version" -> call.version();
            default -> null;
        };
    }
}
