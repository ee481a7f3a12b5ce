package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Checks the raw bytes of one request head for what Netty's decoder would quietly accept: obs-fold
 * (a field line starting with SP or HTAB), a CR that does not end a line, and a request line whose
 * separators are not single spaces (Netty splits it on any whitespace, including HTAB, VT, FF and CR).
 *
 * <p>Fed the head in pieces of whole lines, in order; {@link #startHead} before each head.
 */
final class HeadScanner implements ByteProcessor {

    private enum Part { BEFORE_REQUEST_LINE, REQUEST_LINE, FIELD_LINES }

    private Part part;
    private boolean atLineStart;
    private boolean afterCr;
    private boolean afterSp;
    private String problem;

    HeadScanner() {
        startHead();
    }

    void startHead() {
        part = Part.BEFORE_REQUEST_LINE;
        atLineStart = true;
        afterCr = false;
        afterSp = false;
    }

    /** Returns what is wrong in {@code length} bytes of {@code in} from {@code start}, or null. */
    String scan(ByteBuf in, int start, int length) {
        problem = null;
        in.forEachByte(start, length, this);
        return problem;
    }

    @Override
    public boolean process(byte value) {
        if (afterCr) {
            afterCr = false;
            if (value != '\n') {
                return fail("a CR not followed by LF");
            }
        }
        if (value == '\r') {
            afterCr = true;
            return true;
        }
        if (value == '\n') {
            if (part == Part.REQUEST_LINE) {
                part = Part.FIELD_LINES;
            }
            atLineStart = true;
            return true;
        }
        if (part == Part.FIELD_LINES) {
            if (atLineStart && (value == ' ' || value == '\t')) {
                return fail("obs-fold: a field line starts with SP or HTAB (expected: a field name)");
            }
            atLineStart = false;
            return true;
        }
        part = Part.REQUEST_LINE;
        return requestLineByte(value);
    }

    private boolean requestLineByte(byte value) {
        boolean space = value == ' ';
        if (space && (atLineStart || afterSp)) {
            return fail("request line with a leading or repeated SP");
        }
        if (value == '\t' || value == 0x0b || value == 0x0c) {
            return fail("request line with whitespace other than SP");
        }
        afterSp = space;
        atLineStart = false;
        return true;
    }

    private boolean fail(String found) {
        problem = found;
        return false;
    }
}
