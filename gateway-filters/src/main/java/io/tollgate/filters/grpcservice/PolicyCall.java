package io.tollgate.filters.grpcservice;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One unary call to a policy service on behalf of a held request: started from the request's
 * event loop, which only hands it to grpc-java's transport, and answered on that same loop (the
 * call's executor), within its deadline. The request's filter cancels it when the request ends
 * first.
 *
 * @param <R> the answer's type
 */
public final class PolicyCall<R> {

    /** Hears how a call ended, on the executor it was started with. */
    @FunctionalInterface
    public interface Outcome<R> {

        /** The answer, or null with the status of the failure ({@link Status#isOk()} false). */
        void ended(R answer, Status status);
    }

    private final ClientCall<?, R> call;
    private boolean ended;
    private boolean cancelled;

    private PolicyCall(ClientCall<?, R> call) {
        this.call = call;
    }

    /**
     * Calls {@code method} with {@code request} over {@code channel}; {@code outcome} hears the end
     * once, on {@code loop}.
     */
    public static <Q, R> PolicyCall<R> start(Channel channel, MethodDescriptor<Q, R> method, Q request,
            Duration timeout, Executor loop, Outcome<R> outcome) {
        CallOptions options = CallOptions.DEFAULT.withExecutor(loop)
                .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
        ClientCall<Q, R> call = channel.newCall(method, options);
        PolicyCall<R> started = new PolicyCall<>(call);
        call.start(new ClientCall.Listener<>() {
            private R answer;

            @Override
            public void onMessage(R message) {
                answer = message;
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                started.ended = true;
                if (started.cancelled) {
                    return;
                }
                if (status.isOk() && answer == null) {
                    outcome.ended(null, Status.INTERNAL.withDescription("no answer in a unary call"));
                } else {
                    outcome.ended(status.isOk() ? answer : null, status);
                }
            }
        }, new Metadata());
        call.sendMessage(request);
        call.halfClose();
        call.request(1);
        return started;
    }

    /** Cancels the call unless it ended; its outcome is then never heard. Call on the loop it answers on. */
    public void cancel() {
        if (!ended) {
            cancelled = true;
            call.cancel("the request ended first", null);
        }
    }
}
