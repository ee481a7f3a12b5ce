/**
 * Sending finished spans to a tracing backend off the event loops: a bounded lock-free queue the
 * loops offer to, one thread per exporter draining it in batches over HTTP, and a registry that
 * shares one exporter among configurations with the same settings. Knows nothing of the span's
 * shape: the encoder that turns a batch into a request body is given.
 */
package io.tollgate.filters.trace.export;
