package io.tollgate.protocols.bolt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoltStatusTest {

    @ParameterizedTest
    @CsvSource({"0, 200", "1, 500", "2, 500", "3, 500", "4, 503", "5, 500", "6, 500", "7, 504", "8, 500", "9, 500",
            "16, 502", "17, 500", "18, 500", "10, 500", "-1, 500"})
    void mapsEveryCodeToItsHttpMeaning(int code, int httpStatus) {
        assertThat(BoltStatus.CODES.httpStatusOf(code)).isEqualTo(httpStatus);
    }

    @Test
    void findsTheConstantForADefinedCodeOnly() {
        assertThat(BoltStatus.CODES.fromCode(0x10)).contains(BoltStatus.CONNECTION_CLOSED);
        assertThat(BoltStatus.CODES.fromCode(9)).contains(BoltStatus.CODEC_EXCEPTION);
        assertThat(BoltStatus.CODES.fromCode(0x0a)).isEmpty();
    }
}
