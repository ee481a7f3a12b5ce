package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.core.config.PathNormalization;
import io.tollgate.core.config.PathNormalization.EscapedSlashes;
import io.tollgate.protocols.http1.PathNormalizer.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Envoy's path normalization, case by case: what each setting does to a legal or a tricky path. */
class PathNormalizerTest {

    private static final PathNormalizer RFC3986 = PathNormalizer.of(
            new PathNormalization(true, false, EscapedSlashes.KEEP_UNCHANGED));
    private static final PathNormalizer MERGE = PathNormalizer.of(
            new PathNormalization(true, true, EscapedSlashes.KEEP_UNCHANGED));
    private static final PathNormalizer MERGE_ONLY = PathNormalizer.of(
            new PathNormalization(false, true, EscapedSlashes.KEEP_UNCHANGED));

    @Test
    void settingsThatLeavePathsAsReceivedMakeNoNormalizer() {
        assertThat(PathNormalizer.of(PathNormalization.OFF)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/a/../b|/b",
            "/a/b/../c|/a/c",
            "/a/b/./c|/a/b/c",
            "/a/b/../../../../c|/c",
            "/../a|/a",
            "/./a|/a",
            "/..|/",
            "/a/b/..|/a/",
            "/a/.|/a/",
            "/%2e%2e/x|/x",
            "/a/b/%2E%2E/c|/a/c",
            "/a/b/%2E./c|/a/c",
            "/a/b/.%2e/c|/a/c",
            "/a/b/%2e/c|/a/b/c",
            "/foo/%2e%2|/foo/.%2",
            "/foo/..bar|/foo/..bar",
            "/%41%7e%2D|/A~-",
            "/%c0%af|/%c0%af",
            "/%5c%25|/%5c%25",
            "/a/%2F%2f/c|/a/%2F%2f/c",
            "//x|//x",
            "/A/B/C|/A/B/C",
            "/a/../b?q=/../c|/b?q=/../c",
            "http://h.example/a/../b?x|http://h.example/b?x",
    })
    void rfc3986RemovesDotSegmentsAndDecodesUnreservedCharactersLeavingTheRest(String received, String forwarded) {
        HttpRequest request = request(received);
        assertThat(RFC3986.apply(request)).isEqualTo(Verdict.FORWARD);
        assertThat(request.uri()).isEqualTo(forwarded);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/xyz", "/x/y/z/", "/a%20b/%C3%A9", "/.well-known/x", "/a/..b/.c", "/a?b=//c",
            "/a;p=1/b:c@d", "*", "/%2F"})
    void aPathAlreadyNormalIsForwardedAsTheSameTarget(String target) {
        for (PathNormalizer normalizer : new PathNormalizer[] {RFC3986, MERGE, MERGE_ONLY}) {
            HttpRequest request = request(target);
            assertThat(normalizer.apply(request)).isEqualTo(Verdict.FORWARD);
            assertThat(request.uri()).as("not even copied").isSameAs(target);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/xyz/.%00../abc", "/xyz/%00.%00./abc", "/a%00"})
    void anEncodedNulCannotBeNormalizedAndIsRejected(String target) {
        assertThat(RFC3986.apply(request(target))).isEqualTo(Verdict.REJECT);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"//x|/x", "/a///b//|/a/b/", "//a/?b=//c|/a/?b=//c", "/a//../b|/a/b"})
    void mergeSlashesMergesRunsOfSlashesAfterNormalizing(String received, String forwarded) {
        HttpRequest request = request(received);
        assertThat(MERGE.apply(request)).isEqualTo(Verdict.FORWARD);
        assertThat(request.uri()).isEqualTo(forwarded);
    }

    @Test
    void mergeSlashesAloneLeavesDotSegments() {
        HttpRequest request = request("//a/../b");
        assertThat(MERGE_ONLY.apply(request)).isEqualTo(Verdict.FORWARD);
        assertThat(request.uri()).isEqualTo("/a/../b");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "KEEP_UNCHANGED|/a%2Fb%5c|FORWARD|/a%2Fb%5c",
            "REJECT_REQUEST|/a%2fb|REJECT|/a%2fb",
            "REJECT_REQUEST|/a%5Cb|REJECT|/a%5Cb",
            "REJECT_REQUEST|/a/b?c=%2F|FORWARD|/a/b?c=%2F",
            "UNESCAPE_AND_FORWARD|/a%2Fb|FORWARD|/a/b",
            "UNESCAPE_AND_FORWARD|/a%2f..%2fb|FORWARD|/b",
            "UNESCAPE_AND_FORWARD|/a%5Cb|FORWARD|/a/b",
            "UNESCAPE_AND_REDIRECT|/x/a%2F..%2Fb?q=1|REDIRECT|/x/b?q=1",
            "UNESCAPE_AND_REDIRECT|/x/a/../b|FORWARD|/x/b",
    })
    void escapedSlashesAreHandledAsTheActionSays(EscapedSlashes action, String received, Verdict verdict,
            String target) {
        PathNormalizer normalizer = PathNormalizer.of(new PathNormalization(true, false, action));
        HttpRequest request = request(received);
        assertThat(normalizer.apply(request)).isEqualTo(verdict);
        assertThat(request.uri()).isEqualTo(target);
    }

    @Test
    void unescapingWithoutNormalizingLeavesTheRestAsReceived() {
        PathNormalizer normalizer = PathNormalizer.of(
                new PathNormalization(false, false, EscapedSlashes.UNESCAPE_AND_FORWARD));
        HttpRequest request = request("/a%2F%2e%2e/%41");
        assertThat(normalizer.apply(request)).isEqualTo(Verdict.FORWARD);
        assertThat(request.uri()).isEqualTo("/a/%2e%2e/%41");
    }

    private static HttpRequest request(String target) {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
    }
}
