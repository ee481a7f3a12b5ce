package io.tollgate.protocols.dubbo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DubboStatusTest {

    @ParameterizedTest
    @CsvSource({
        "OK, 20, 200", "SERIALIZATION_ERROR, 25, 500", "CLIENT_TIMEOUT, 30, 504", "SERVER_TIMEOUT, 31, 504",
        "BAD_REQUEST, 40, 400", "BAD_RESPONSE, 50, 502", "SERVICE_NOT_FOUND, 60, 503", "SERVICE_ERROR, 70, 500",
        "SERVER_ERROR, 80, 500", "CLIENT_ERROR, 90, 500", "SERVER_THREADPOOL_EXHAUSTED_ERROR, 100, 503"})
    void carriesDubbosCodeAndItsHttpMeaning(DubboStatus status, int code, int httpStatus) {
        assertThat(status.code()).isEqualTo(code);
        assertThat(status.httpStatus()).isEqualTo(httpStatus);
        assertThat(DubboStatus.CODES.fromCode(code)).contains(status);
        assertThat(DubboStatus.CODES.httpStatusOf(code)).isEqualTo(httpStatus);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 21, 35, 101, 255, 256})
    void meansAServerErrorForACodeDubboDoesNotDefine(int code) {
        assertThat(DubboStatus.CODES.fromCode(code)).isEmpty();
        assertThat(DubboStatus.CODES.httpStatusOf(code)).isEqualTo(500);
    }

    @Test
    void namesElevenStatuses() {
        assertThat(DubboStatus.values()).hasSize(11);
    }
}
