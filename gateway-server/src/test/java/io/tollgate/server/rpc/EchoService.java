package io.tollgate.server.rpc;

/** The service a SOFARPC provider exposes behind the gateway in tests. */
public interface EchoService {

    String echo(String message);

    /** Throws an IllegalStateException carrying {@code message}. */
    String fail(String message);

    /** Answers only once the test lets it, or after a few seconds. */
    String slow(String message);

    /** Called oneway: records the message. */
    void record(String message);
}
