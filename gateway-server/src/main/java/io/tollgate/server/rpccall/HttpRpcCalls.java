package io.tollgate.server.rpccall;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.dubbo.DubboFrame;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.generic.CallErrorException;
import io.tollgate.protocols.generic.DubboGenericCalls;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.generic.GenericReply;
import io.tollgate.protocols.generic.HttpCallRequest;
import io.tollgate.protocols.generic.MethodCandidate;
import io.tollgate.protocols.generic.MethodChooser;
import io.tollgate.protocols.generic.SofaGenericCalls;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.JsonMappingException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.server.dispatch.GatewayError;
import io.tollgate.server.rpc.RpcUpstreams;
import io.tollgate.server.rpc.ServiceClusters;
import io.tollgate.server.grpcjson.GrpcJsonCalls;
import java.util.List;
import java.util.function.Function;

/**
 * What a route's {@code rpc_call} does with an HTTP request and with its answer, apart from the
 * I/O: reads the request into a {@link GenericCall} typed from the registry, the route's
 * {@code methods} or the {@code x-rpc-types} header; writes its frame in the route's protocol; reads
 * the provider's answer, or the gateway's own failure, into the one error contract. Shared by every
 * HTTP listener and event loop: it holds no request state.
 */
public final class HttpRpcCalls {

    /** SOFARPC 5's hessian: sofa-hessian 3, Caucho's 3.1 draft of Hessian 2. */
    private static final Hessian2Dialect SOFA_DIALECT = Hessian2Dialect.DRAFT;

    /** Makes no call: every request to an {@code rpc_call} route is answered 503. */
    public static final HttpRpcCalls NONE = new HttpRpcCalls(ServiceMethods.NONE, engine -> null, ServiceClusters.NONE);

    private final ServiceMethods registry;
    private final Function<String, RpcUpstreams> upstreams;
    private final ServiceClusters serviceClusters;
    private final GrpcJsonCalls grpc = new GrpcJsonCalls();

    /**
     * @param registry the methods published by registries, by cluster
     * @param upstreams the process's upstream connections of an RPC protocol, by its name, shared
     *     with the listeners of that protocol; null when the protocol is unknown
     * @param serviceClusters where a call to a per-service template finds its service's cluster
     */
    public HttpRpcCalls(ServiceMethods registry, Function<String, RpcUpstreams> upstreams,
            ServiceClusters serviceClusters) {
        this.registry = registry;
        this.upstreams = upstreams;
        this.serviceClusters = serviceClusters;
    }

    /**
     * The cluster of {@code request}'s service made from the per-service template {@code template},
     * as {@link ServiceClusters#lookup} finds it; null when {@code template} is no template.
     */
    public ServiceClusters.Lookup serviceCluster(String template, RpcCallConfig.Protocol protocol,
            HttpCallRequest request) {
        return serviceClusters.lookup(template, CallRoute.of(protocol, request));
    }

    /** What {@code rpc_call} routes of protocol {@code grpc} or {@code triple} make of their requests. */
    public GrpcJsonCalls grpc() {
        return grpc;
    }

    /** The methods registries published, by cluster: what calls are typed by and OpenAPI documents list. */
    public ServiceMethods registry() {
        return registry;
    }

    /** The upstream connections calls in {@code protocol} go on, or null when there are none. */
    public RpcUpstreams upstreams(RpcCallConfig.Protocol protocol) {
        return upstreams.apply(protocol.engine());
    }

    /**
     * An HTTP request to a route with {@code config} read as a call.
     *
     * @param header a request header by lower-case name, or null when absent
     * @throws CallErrorException with the status and body to answer
     */
    public static HttpCallRequest request(RpcCallConfig config, String httpMethod, String uri,
            Function<String, String> header, byte[] body) {
        return HttpCallRequest.parse(config.prefix(), httpMethod, uri, header, body);
    }

    /**
     * The call {@code request} makes, its types chosen.
     *
     * @param cluster the cluster the call goes to, whose registry may know the service's methods
     * @param timeoutMillis the timeout the provider is told
     * @throws CallErrorException with the status and body to answer
     */
    public GenericCall call(RpcCallConfig config, String cluster, HttpCallRequest request, int timeoutMillis) {
        List<MethodCandidate> configured;
        try {
            configured = configured(config, request.service());
        } catch (JsonMappingException e) {
            throw new CallErrorException(CallError.badRequest("the route's methods of " + request.service()
                    + " name a type that cannot be read: " + e.getMessage()));
        }
        PublishedTypes published = registry.methods(cluster, request.service());
        List<JavaType> types = MethodChooser.choose(request.method(), request.arguments(), published.methods(),
                configured, request.headerTypes());
        return new GenericCall(request.service(), request.method(), request.group(), request.version(),
                request.uniqueId(), types, request.arguments(), published.catalog(), timeoutMillis);
    }

    private static List<MethodCandidate> configured(RpcCallConfig config, String service) {
        List<RpcCallConfig.Method> methods = config.methods().get(service);
        if (methods == null) {
            return List.of();
        }
        return methods.stream().map(m -> MethodCandidate.of(m.name(), m.parameterTypes())).toList();
    }

    /**
     * The request frame of {@code call} in {@code protocol}, owned by the caller; its id is the
     * upstream connection's to set.
     *
     * @throws CallErrorException (400) when an argument does not fit its parameter's type
     */
    public static ByteBuf frame(ByteBufAllocator alloc, RpcCallConfig.Protocol protocol, GenericCall call) {
        try {
            return switch (protocol) {
                case DUBBO -> DubboGenericCalls.request(alloc, 0, call);
                case SOFA -> SofaGenericCalls.request(alloc, 0, call, SOFA_DIALECT);
                case GRPC, TRIPLE -> throw new IllegalArgumentException(protocol + " calls are gRPC requests");
            };
        } catch (JsonMappingException e) {
            throw new CallErrorException(CallError.badRequest(e.getMessage()));
        }
    }

    /** What the provider's {@code response} in {@code protocol} says; the frame stays the caller's. */
    public static GenericReply reply(RpcCallConfig.Protocol protocol, RpcFrame response) {
        return switch (protocol) {
            case DUBBO -> DubboGenericCalls.reply((DubboFrame) response);
            case SOFA -> SofaGenericCalls.reply((BoltFrame) response, SOFA_DIALECT);
            case GRPC, TRIPLE -> throw new IllegalArgumentException(protocol + " answers are gRPC responses");
        };
    }

    /**
     * The contract's error for a request to an {@code rpc_call} route that the gateway refused
     * before any call was made: 503, saying why.
     */
    public static CallError refusal(GatewayError error) {
        return switch (error) {
            case OVERLOAD -> CallError.unavailable("the gateway is overloaded");
            case NO_ROUTE -> CallError.unavailable("no route takes the call");
            case NO_CLUSTER -> CallError.unavailable("the route's cluster does not exist");
            case NO_HEALTHY_UPSTREAM -> CallError.unavailable("no healthy provider");
        };
    }

    /** The contract's error for a call the gateway could not get answered. */
    public static CallError error(RpcError error) {
        return switch (error) {
            case TIMEOUT -> CallError.timeout("the call timed out");
            case NO_HEALTHY_UPSTREAM, NO_ROUTE -> CallError.unavailable("no healthy provider");
            case OVERFLOW -> CallError.unavailable("too many calls to the service's providers");
            case CONNECTION_CLOSED -> CallError.badGateway("the provider closed the connection before answering");
            case MALFORMED, PERMISSION_DENIED, SERVER_ERROR, RATE_LIMITED ->
                    CallError.badGateway("the call failed (" + error + ")");
        };
    }
}
