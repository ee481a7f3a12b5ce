package io.tollgate.protocols.bolt;

/**
 * The limits {@link BoltCodec} enforces on the fixed header, before it waits for the rest of a
 * frame, so that a peer cannot make the gateway buffer more than it allows.
 *
 * @param maxFrameSize the largest whole frame in bytes, fixed header and CRC included
 * @param maxClassLength the longest class name in bytes
 * @param maxHeaderLength the longest header map in bytes
 */
public record BoltCodecOptions(int maxFrameSize, int maxClassLength, int maxHeaderLength) {

    /** 16 MiB frames, 1 KiB class names, header maps up to the int16 maximum. */
    public static final BoltCodecOptions DEFAULTS = new BoltCodecOptions(16 * 1024 * 1024, 1024, Short.MAX_VALUE);

    /** Validates that every limit leaves room for a frame and fits its length field. */
    public BoltCodecOptions {
        if (maxFrameSize < BoltProtocol.V2_REQUEST_HEADER_LENGTH + BoltProtocol.CRC_LENGTH) {
            throw new IllegalArgumentException("maxFrameSize: " + maxFrameSize + " (expected: >= "
                    + (BoltProtocol.V2_REQUEST_HEADER_LENGTH + BoltProtocol.CRC_LENGTH) + ")");
        }
        if (maxClassLength < 0 || maxClassLength > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "maxClassLength: " + maxClassLength + " (expected: 0.." + Short.MAX_VALUE + ")");
        }
        if (maxHeaderLength < 0 || maxHeaderLength > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "maxHeaderLength: " + maxHeaderLength + " (expected: 0.." + Short.MAX_VALUE + ")");
        }
    }
}
