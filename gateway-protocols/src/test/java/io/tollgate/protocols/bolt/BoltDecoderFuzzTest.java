package io.tollgate.protocols.bolt;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tollgate.protocols.rpc.RpcFuzzing;

/**
 * Fuzzes the Bolt decoder and routing view (see {@link RpcFuzzing} for every check) with the default
 * limits and with limits small enough that fuzzed lengths reach them. The only exception expected is
 * {@link BoltCodecException}. Seeds: SOFARPC captures and v2 heartbeats with and without CRC, in
 * {@code BoltDecoderFuzzTestInputs}; {@code docs/fuzzing.md} says how to fuzz for longer.
 */
class BoltDecoderFuzzTest {

    private static final RpcFuzzing<BoltFrame> DEFAULT_LIMITS =
            new RpcFuzzing<>(BoltCodec.DEFAULTS, BoltCodecException.class, BoltDecoderFuzzTest::readAll);
    private static final RpcFuzzing<BoltFrame> SMALL_LIMITS = new RpcFuzzing<>(
            new BoltCodec(new BoltCodecOptions(512, 64, 256)), BoltCodecException.class, BoltDecoderFuzzTest::readAll);

    @FuzzTest(maxDuration = "2m")
    void decodesRoutesAndAnswersOrRefusesAnyByteStream(byte[] input) {
        DEFAULT_LIMITS.check(input);
        SMALL_LIMITS.check(input);
    }

    /** Everything a Bolt frame offers beyond the common view. */
    private static void readAll(BoltFrame frame) {
        frame.protocolCode();
        frame.protocolVersion();
        frame.commandVersion();
        frame.codec();
        frame.switches();
        frame.hasCrc();
        frame.dialect();
        frame.className();
        frame.content();
        frame.header();
        if (frame.kind().isRequest()) {
            frame.timeout();
        } else {
            frame.status();
        }
        frame.headers();
    }
}
