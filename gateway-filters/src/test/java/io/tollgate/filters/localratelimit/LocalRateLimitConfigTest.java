package io.tollgate.filters.localratelimit;

import static io.tollgate.filters.FilterYaml.ENTRY;
import static io.tollgate.filters.FilterYaml.assertRejected;
import static io.tollgate.filters.FilterYaml.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The {@code local_rate_limit} entry as the loader reads it: defaults, and errors naming the field. */
class LocalRateLimitConfigTest {

    @Test
    void oneBucketForTheChainByDefaultFilledOneTokenAtATime() {
        LocalRateLimitSettings s = settings("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s }", LocalRateLimitSettings.class);
        assertThat(s.maxTokens()).isEqualTo(5);
        assertThat(s.tokensPerFill()).isEqualTo(1);
        assertThat(s.fillInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.descriptor()).isNull();
    }

    @Test
    void descriptorsByClientAddressOrHeaderWithABoundedMap() {
        LocalRateLimitSettings byIp = settings(
                "{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s, descriptor: { client_ip: true } }",
                LocalRateLimitSettings.class);
        assertThat(byIp.descriptor()).isEqualTo(LocalRateLimitSettings.Descriptor.CLIENT_IP);
        assertThat(byIp.maxDescriptors()).isEqualTo(10_000);
        LocalRateLimitSettings byHeader = settings("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s,"
                + " descriptor: { header: X-Api-Key }, max_descriptors: 50 }", LocalRateLimitSettings.class);
        assertThat(byHeader.descriptor().header()).isEqualTo("x-api-key");
        assertThat(byHeader.maxDescriptors()).isEqualTo(50);
    }

    @Test
    void badTokensAndIntervalsAreNamedByTheirPath() {
        assertRejected("{ name: local_rate_limit, max_tokens: -1, fill_interval: 1s }",
                ENTRY + ".max_tokens: -1 (expected: 1..1000000000)");
        assertRejected("{ name: local_rate_limit, fill_interval: 1s }", ENTRY + ".max_tokens: required");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, tokens_per_fill: 0, fill_interval: 1s }",
                ENTRY + ".tokens_per_fill: 0 (expected: 1..1000000000)");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: 10ms }",
                ENTRY + ".fill_interval: 10ms (expected: at least 50ms)");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: soon }",
                ENTRY + ".fill_interval: 'soon' is not a duration (expected an integer of at most 9 digits and a unit"
                        + " ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)");
    }

    @Test
    void badDescriptorsAreNamedByTheirPath() {
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s, descriptor: {} }",
                ENTRY + ".descriptor: must give exactly one of client_ip: true, header");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s,"
                        + " descriptor: { client_ip: true, header: x } }",
                ENTRY + ".descriptor: must give exactly one of client_ip: true, header");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s, max_descriptors: 5 }",
                ENTRY + ".max_descriptors: only with a descriptor");
        assertRejected("{ name: local_rate_limit, max_tokens: 5, fill_interval: 1s, descriptor: { client_ip: true },"
                        + " max_descriptors: 0 }",
                ENTRY + ".max_descriptors: 0 (expected: 1..10000000)");
    }
}
