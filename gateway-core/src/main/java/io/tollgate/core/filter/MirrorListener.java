package io.tollgate.core.filter;

/** Hears how a shadow copy of a request ended; called once per copy, on the request's event loop. */
@FunctionalInterface
public interface MirrorListener {

    void mirrored(MirrorOutcome outcome);
}
