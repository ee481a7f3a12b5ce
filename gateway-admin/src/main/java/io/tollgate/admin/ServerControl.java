package io.tollgate.admin;

/**
 * The process controls the admin API offers (Envoy's {@code /server_info},
 * {@code /healthcheck/fail}, {@code /healthcheck/ok}, {@code /drain_listeners} and
 * {@code /quitquitquit}); implemented by the server. Every method is called on the admin thread
 * and MUST return at once: a drain runs on after the answer is written.
 */
public interface ServerControl {

    /** The process's version, state, uptime and command line. */
    ServerInfo info();

    /** Makes {@code /ready} answer 503 ({@code fail}) or stop doing so, draining nothing. */
    void failHealthChecks(boolean fail);

    /**
     * Starts draining every listener, the process staying up.
     *
     * @param graceful whether the listeners keep accepting until the drain ends (each new
     *     connection draining at once); else they stop accepting now
     */
    void drainListeners(boolean graceful);

    /** Starts draining every listener; the process exits once the drain ends. */
    void quit();
}
