package io.tollgate.protocols.dubbo;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tollgate.protocols.rpc.RpcFuzzing;

/**
 * Fuzzes the Dubbo decoder, its routing view (the hessian2 body read by {@link Hessian2Reader}) and
 * the whole invocation, with the default payload limit and a small one (see {@link RpcFuzzing} for
 * every check). The only exception expected is {@link DubboCodecException}. Seeds: Dubbo captures
 * and heartbeats, in {@code DubboDecoderFuzzTestInputs}; {@code docs/fuzzing.md} says how to fuzz
 * for longer.
 */
class DubboDecoderFuzzTest {

    private static final RpcFuzzing<DubboFrame> DEFAULT_LIMIT =
            new RpcFuzzing<>(DubboCodec.DEFAULTS, DubboCodecException.class, DubboDecoderFuzzTest::readAll);
    private static final RpcFuzzing<DubboFrame> SMALL_LIMIT =
            new RpcFuzzing<>(new DubboCodec(256), DubboCodecException.class, DubboDecoderFuzzTest::readAll);

    @FuzzTest(maxDuration = "2m")
    void decodesRoutesAndAnswersOrRefusesAnyByteStream(byte[] input) {
        DEFAULT_LIMIT.check(input);
        SMALL_LIMIT.check(input);
    }

    /**
     * Everything a Dubbo frame offers beyond the common view: the whole invocation reads without
     * error exactly when the routing fields did.
     */
    private static void readAll(DubboFrame frame) {
        frame.flag();
        frame.serializationId();
        frame.isEvent();
        frame.bodyLength();
        frame.body();
        if (!frame.kind().isRequest()) {
            frame.status();
        }
        boolean routable;
        try {
            frame.service();
            routable = true;
        } catch (DubboCodecException e) {
            routable = false;
        }
        if (routable) {
            frame.attachments();
            frame.invocation();
        } else {
            assertThatThrownBy(frame::attachments).isInstanceOf(DubboCodecException.class);
        }
    }
}
