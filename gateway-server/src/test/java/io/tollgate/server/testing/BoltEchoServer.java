package io.tollgate.server.testing;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;

/** A sofa-bolt {@link RpcServer} for tests that answers every String request with {@code "echo:" + request}. */
public final class BoltEchoServer {

    private BoltEchoServer() {
    }

    /** Starts one on 127.0.0.1:{@code port}; the caller shuts it down. */
    public static RpcServer start(int port) {
        RpcServer server = new RpcServer("127.0.0.1", port, false);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                return "echo:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        return server;
    }
}
