package io.tollgate.server.exchange;

/** Told when a request's {@link ExchangeRecord} finishes, with the status the access log writes. */
public interface FinishListener {

    /** The request ended with {@code status} (0: no answer). */
    void finished(int status);
}
