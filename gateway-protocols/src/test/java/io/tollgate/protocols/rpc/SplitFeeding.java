package io.tollgate.protocols.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.protocols.rpc.RpcCodecFixtures.Decoded;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Checks that a protocol's decoder cuts the same frames from a capture however its bytes arrive:
 * whole, one byte at a time, or in two reads split anywhere, so that a frame boundary in the middle
 * of a read, or a length split across two, is proven once for every protocol.
 */
public final class SplitFeeding {

    private SplitFeeding() {
    }

    /** Checks that the frames decoded from {@code capture}, joined, are every byte of it. */
    public static void assertConsumedAsWholeFrames(RpcCodecFixtures<?> fixtures, byte[] capture) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (Decoded frame : fixtures.decodeChunks(List.of(capture))) {
            joined.writeBytes(frame.bytes());
        }
        assertThat(joined.toByteArray()).isEqualTo(capture);
    }

    /** Checks that {@code capture} fed one byte at a time decodes to the frames it decodes to whole. */
    public static void assertSameFramesFedOneByteAtATime(RpcCodecFixtures<?> fixtures, byte[] capture) {
        List<byte[]> singleBytes = new ArrayList<>();
        for (byte b : capture) {
            singleBytes.add(new byte[] {b});
        }
        assertSameFrames(fixtures.decodeChunks(singleBytes), fixtures.decodeChunks(List.of(capture)));
    }

    /**
     * Checks that {@code capture} split in two reads decodes to the frames it decodes to whole. A
     * capture of one or two frames is split at every offset; a longer one at every offset of its
     * first two frames and around every frame boundary: splitting every byte of a 30-frame capture
     * would decode hundreds of thousands of frames under paranoid leak detection and prove nothing more.
     */
    public static void assertSameFramesSplitInTwoAtEveryOffset(RpcCodecFixtures<?> fixtures, byte[] capture) {
        List<Decoded> whole = fixtures.decodeChunks(List.of(capture));
        for (int split : splitOffsets(whole)) {
            List<byte[]> halves = List.of(Arrays.copyOfRange(capture, 0, split),
                    Arrays.copyOfRange(capture, split, capture.length));
            assertSameFrames(fixtures.decodeChunks(halves), whole);
        }
    }

    private static Set<Integer> splitOffsets(List<Decoded> frames) {
        Set<Integer> offsets = new TreeSet<>();
        int boundary = 0;
        for (int i = 0; i < frames.size(); i++) {
            int end = boundary + frames.get(i).bytes().length;
            if (i < 2) {
                IntStream.range(boundary + 1, end).forEach(offsets::add);
            }
            IntStream.rangeClosed(boundary - 1, boundary + 1).forEach(offsets::add);
            boundary = end;
        }
        int length = boundary;
        offsets.add(length - 1);
        offsets.removeIf(offset -> offset < 1 || offset >= length);
        return offsets;
    }

    private static void assertSameFrames(List<Decoded> actual, List<Decoded> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).kind()).isEqualTo(expected.get(i).kind());
            assertThat(actual.get(i).requestId()).isEqualTo(expected.get(i).requestId());
            assertThat(actual.get(i).bytes()).isEqualTo(expected.get(i).bytes());
        }
    }
}
