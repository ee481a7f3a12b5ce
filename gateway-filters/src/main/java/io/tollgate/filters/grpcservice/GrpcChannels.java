package io.tollgate.filters.grpcservice;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.tollgate.filters.trace.export.SharedExporters;
import java.util.concurrent.TimeUnit;

/**
 * One grpc-java channel per policy service target for the whole process, shared by every
 * configuration that names the target, so that a reload keeps the service's connection. A filter
 * holds its channel through a handle; once no loaded configuration holds it, the next filter made
 * closes it. Channels connect on their first call, never when a configuration is compiled, and do
 * their I/O on grpc-java's own event loop, so that the gateway's loops only hand a call over.
 */
public final class GrpcChannels {

    private static final SharedExporters<String, OpenChannel> CHANNELS = new SharedExporters<>();

    private GrpcChannels() {
    }

    /** The handle of the channel to {@code target} (plaintext HTTP/2), made if none is in use. */
    public static SharedExporters.Handle<OpenChannel> acquire(String target) {
        return CHANNELS.acquire(target, t -> new OpenChannel(NettyChannelBuilder.forTarget(t).usePlaintext().build()));
    }

    /** A channel in use, shut down when no configuration holds it any more. */
    public record OpenChannel(ManagedChannel channel) implements AutoCloseable {

        @Override
        public void close() {
            channel.shutdownNow();
            try {
                channel.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
