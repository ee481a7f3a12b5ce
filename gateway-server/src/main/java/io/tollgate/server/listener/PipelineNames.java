package io.tollgate.server.listener;

/**
 * The names of the handlers in a downstream pipeline, in pipeline order:
 * <ol>
 *   <li>{@link #DETECT}: present only until the protocol is known, when the listener serves more
 *       than one protocol;</li>
 *   <li>{@link #HEAD_GUARD}: HTTP/1 only, refuses request heads the codec would repair;</li>
 *   <li>{@link #CODEC}: the protocol's codec (its decoder, for protocols with separate halves);</li>
 *   <li>{@link #ENCODER}: the encoder of protocols whose codec comes in two halves (Bolt);</li>
 *   <li>{@link #IDLE}: closes connections idle too long;</li>
 *   <li>{@link #PROXY}: the protocol's proxy handler, always last.</li>
 * </ol>
 */
public final class PipelineNames {

    public static final String DETECT = "detect";
    public static final String HEAD_GUARD = "head-guard";
    public static final String CODEC = "codec";
    public static final String ENCODER = "encoder";
    public static final String IDLE = "idle";
    public static final String PROXY = "proxy";

    private PipelineNames() {
    }
}
