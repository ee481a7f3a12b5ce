package io.tollgate.server.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * The service a real Dubbo provider exposes in the Dubbo tests, with one method per behaviour a
 * gateway must carry: exact echoes of text and bytes, a provider exception, a slow answer, an
 * asynchronous one, and an answer that names the provider.
 */
public interface DubboEchoService {

    /** Answers {@code message} unchanged. */
    String echo(String message);

    /** Answers {@code providerName + ":" + message}, so a test can tell which provider answered. */
    String tagged(String message);

    /** Answers the value of the attachment {@code name} as the provider received it, or null. */
    String attachment(String name);

    /** Answers the same bytes. */
    byte[] echoBytes(byte[] payload);

    /** Throws an {@link IllegalStateException} carrying {@code message}. */
    String fail(String message);

    /** Answers {@code message} after {@code millis} milliseconds. */
    String slow(String message, long millis);

    /** Answers {@code message} from another thread, through Dubbo's asynchronous server path. */
    CompletableFuture<String> echoAsync(String message);
}
