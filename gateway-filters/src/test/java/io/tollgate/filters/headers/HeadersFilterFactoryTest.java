package io.tollgate.filters.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.filters.FilterYaml;
import org.junit.jupiter.api.Test;

class HeadersFilterFactoryTest {

    @Test
    void readsBothSidesAndCompilesVariables() {
        HeadersSettings settings = FilterYaml.settings("""
                { name: headers, request_headers: { add: [ { name: x-client, value: "ip=%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT% 100%%" } ],
                  remove: [ x-secret ] }, response_headers: { add: [ { name: x-route, value: "%ROUTE_NAME%", append: true } ] } }""", HeadersSettings.class);

        assertThat(settings.request().remove()).containsExactly("x-secret");
        assertThat(settings.request().add()).hasSize(1);
        assertThat(settings.response().add().get(0).append()).isTrue();
    }

    @Test
    void unknownVariableIsRejectedWithItsPath() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith(
                "{ name: headers, request_headers: { add: [ { name: x-a, value: \"%NO_SUCH%\" } ] } }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].request_headers.add[0].value")
                .hasMessageContaining("unknown variable %NO_SUCH%");
    }

    @Test
    void lonePercentIsRejected() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith(
                "{ name: headers, response_headers: { add: [ { name: x-a, value: \"50% off\" } ] } }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("response_headers.add[0].value")
                .hasMessageContaining("write %% for a percent sign");
    }

    @Test
    void literalValuesRenderAsThemselvesAndPercentsDouble() {
        assertThat(HeaderTemplate.compile("plain").render(null)).isEqualTo("plain");
        assertThat(HeaderTemplate.compile("100%%").render(null)).isEqualTo("100%");
        assertThat(HeaderTemplate.literal("50% off").render(null)).isEqualTo("50% off");
    }
}
