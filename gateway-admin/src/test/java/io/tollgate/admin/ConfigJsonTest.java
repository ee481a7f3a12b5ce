package io.tollgate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigJsonTest {

    @Test
    void writesDurationsInTheLargestExactUnitTheLoaderReads() {
        assertThat(ConfigJson.duration(Duration.ZERO)).isEqualTo("0s");
        assertThat(ConfigJson.duration(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(ConfigJson.duration(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(ConfigJson.duration(Duration.ofSeconds(15))).isEqualTo("15s");
        assertThat(ConfigJson.duration(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(ConfigJson.duration(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(ConfigJson.duration(Duration.ofHours(1))).isEqualTo("1h");
        assertThat(ConfigJson.duration(Duration.ofNanos(1500))).isEqualTo("PT0.0000015S");
    }

    @Test
    void namesRecordComponentsInSnakeCase() {
        assertThat(ConfigJson.snakeCase("maxRequestBodyBytes")).isEqualTo("max_request_body_bytes");
        assertThat(ConfigJson.snakeCase("name")).isEqualTo("name");
    }

    /** Not public, as a filter's compiled settings in its own package (the headers filter's). */
    private record Hidden(String serverName, Duration idle) {
    }

    @Test
    void writesRecordsThatAreNotPublic() {
        assertThat(ConfigJson.of(new Hidden("istio-envoy", Duration.ofSeconds(5))).toString())
                .isEqualTo("{\"server_name\":\"istio-envoy\",\"idle\":\"5s\"}");
    }
}
