package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.HashPolicyConfig.Source;
import io.tollgate.router.TestRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HashPolicyTest {

    private static HashPolicy policy(HashPolicyConfig... sources) {
        return HashPolicy.of(List.of(sources));
    }

    private static TestRequest request() {
        return TestRequest.of("svc", "/");
    }

    @Test
    void hashesTheSameHeaderValueAlikeAndOtherValuesApart() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.HEADER, "x-user", false));

        assertThat(policy.hash(request().header("x-user", "alice")))
                .isEqualTo(policy.hash(request().header("x-user", "alice").header("x-other", "1")))
                .isNotEqualTo(policy.hash(request().header("x-user", "bob")));
    }

    @Test
    void hashesACookieWhereverItStandsInTheCookieHeader() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.COOKIE, "session", false));
        long alone = policy.hash(request().header("cookie", "session=abc"));

        assertThat(policy.hash(request().header("cookie", "a=1; session=abc; b=2"))).isEqualTo(alone);
        assertThat(policy.hash(request().header("cookie", "xsession=zzz;session=abc"))).isEqualTo(alone);
        assertThat(policy.hash(request().header("cookie", "session=abd"))).isNotEqualTo(alone);
    }

    @Test
    void hashesTheClientAddress() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.SOURCE_IP, "", false));

        assertThat(policy.hash(request().clientAddress("10.0.0.7")))
                .isEqualTo(policy.hash(request().clientAddress("10.0.0.7").header("x-user", "x")))
                .isNotEqualTo(policy.hash(request().clientAddress("10.0.0.8")));
    }

    @Test
    void hashesTheRpcServiceTogetherWithTheParameterHeader() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.RPC_HEADER, "x-param", false));
        long key = policy.hash(request().header("service", "com.a.Users:1.0").header("x-param", "42"));

        assertThat(policy.hash(request().header("service", "com.a.Users:1.0").header("x-param", "42"))).isEqualTo(key);
        assertThat(policy.hash(request().header("service", "com.a.Orders:1.0").header("x-param", "42"))).isNotEqualTo(key);
        assertThat(policy.hash(request().header("service", "com.a.Users:1.0").header("x-param", "43"))).isNotEqualTo(key);
    }

    @Test
    void stopsAtATerminalSourceThatYieldsAValue() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.HEADER, "x-tenant", true),
                new HashPolicyConfig(Source.HEADER, "x-user", false));

        assertThat(policy.hash(request().header("x-tenant", "t1").header("x-user", "a")))
                .isEqualTo(policy.hash(request().header("x-tenant", "t1").header("x-user", "b")));
        assertThat(policy.hash(request().header("x-user", "a")))
                .isNotEqualTo(policy.hash(request().header("x-user", "b")))
                .isEqualTo(policy.hash(request().header("x-user", "a")));
    }

    @Test
    void combinesEverySourcePresentInOrder() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.HEADER, "x-tenant", false),
                new HashPolicyConfig(Source.HEADER, "x-user", false));

        assertThat(policy.hash(request().header("x-tenant", "t1").header("x-user", "a")))
                .isNotEqualTo(policy.hash(request().header("x-tenant", "t1").header("x-user", "b")))
                .isNotEqualTo(policy.hash(request().header("x-tenant", "t1")));
    }

    @Test
    void givesARandomHashWhenNoSourceIsPresent() {
        HashPolicy policy = policy(new HashPolicyConfig(Source.COOKIE, "session", false));
        Set<Long> hashes = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            hashes.add(policy.hash(request().header("cookie", "other=1")));
        }

        assertThat(hashes).hasSizeGreaterThan(15);
    }
}
