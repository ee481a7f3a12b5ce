package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Fuzzes the configuration loader on YAML text: it either returns a configuration or throws a
 * {@link ConfigException} whose message starts with the path of the field at fault, as
 * {@code tollgate validate} prints it. Any other exception (a parser's, an index or number error,
 * a stack overflow) is a bug: a bad file must be refused with a message the operator can act on.
 * Seeds: the example configurations of {@code docs/examples} and the built-in default, in
 * {@code ConfigLoaderFuzzTestInputs}.
 */
class ConfigLoaderFuzzTest {

    /**
     * {@code <root>: }, or a path from a top-level field ({@code listeners[0].http.idle_timeout: }),
     * or an unknown field named as written, which may be any text, then the reason.
     */
    private static final Pattern PATH_NAMED = Pattern.compile(
            "(<root>|(admin|event_loops|listeners|clusters|demo_upstream|overload|node|dynamic_resources|drain|upgrade|config_watch)([.\\[].*?)?): \\S.*"
                    + "|.+: unknown field \\(expected one of \\[.*", Pattern.DOTALL);

    @FuzzTest(maxDuration = "2m")
    void loadsOrRefusesAnyTextNamingTheField(byte[] input) {
        String yaml = new String(input, StandardCharsets.UTF_8);
        GatewayConfig config;
        try {
            config = ConfigLoader.parse(yaml);
        } catch (ConfigException e) {
            assertThat(e.getMessage()).as("message of a refused configuration").matches(PATH_NAMED);
            return;
        }
        assertThat(config.listeners()).isNotNull();
        assertThat(config.clusters()).isNotNull();
    }
}
