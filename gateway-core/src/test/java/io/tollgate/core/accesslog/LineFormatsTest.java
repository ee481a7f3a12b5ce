package io.tollgate.core.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.core.config.AccessLogConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LineFormatsTest {

    static final long START = 1_700_000_000_123L; // 2023-11-14T22:13:20.123Z

    private static AccessLogEntry entry(String[] requestHeaders, String[] responseHeaders, String[] trailers) {
        return new AccessLogEntry(START, "http", "HTTP/1.1", "GET", "/a/b?c=d", "example.com", 200,
                12, 345, 6_789, "10.0.0.1:8081", "api", "req-1", "UT,URX", "127.0.0.1:50000",
                "spiffe://tollgate/client", "backend", null, null, false, requestHeaders, responseHeaders, trailers,
                null, null);
    }

    private static String text(String format, AccessLogEntry entry) {
        StringBuilder out = new StringBuilder();
        LineFormats.of(new AccessLogConfig("x", format, Map.of())).append(entry, out);
        return out.toString();
    }

    private static JsonNode json(Map<String, String> format, AccessLogEntry entry) throws Exception {
        StringBuilder out = new StringBuilder();
        LineFormats.of(new AccessLogConfig("x", "", format)).append(entry, out);
        assertThat(out.indexOf("\n")).isEqualTo(out.length() - 1);
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void withoutFormatTheLineIsTheDefaultOne() {
        AccessLogEntry e = entry(null, null, null);
        StringBuilder expected = new StringBuilder();
        AccessLogFormat.append(e, expected);

        assertThat(LineFormats.of(new AccessLogConfig("x"))).isSameAs(LineFormat.DEFAULT);
        assertThat(text("", e)).isEqualTo(expected.toString());
    }

    @Test
    void writesEveryOperatorOfAFormatString() {
        String line = text("%START_TIME% %PROTOCOL% %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT%"
                + " %DURATION% %UPSTREAM_HOST% %UPSTREAM_CLUSTER% %ROUTE_NAME% %LISTENER_NAME%"
                + " %DOWNSTREAM_REMOTE_ADDRESS% %DOWNSTREAM_PEER_IDENTITY% %REQUEST_ID% %REQ(:METHOD)% %REQ(:PATH)%"
                + " %REQ(:AUTHORITY)% %RESP(:STATUS)% %RPC_SERVICE% %TRACE_ID% 100%%", entry(null, null, null));

        assertThat(line).isEqualTo("2023-11-14T22:13:20.123Z HTTP/1.1 200 UT,URX 12 345 6 10.0.0.1:8081 backend api"
                + " http 127.0.0.1:50000 spiffe://tollgate/client req-1 GET /a/b?c=d example.com 200 - - 100%\n");
    }

    @Test
    void readsHeadersFromTheSlotsItAskedFor() {
        LineFormat format = LineFormats.of(new AccessLogConfig("x",
                "%REQ(user-agent)% %REQ(x-forwarded-for?x-real-ip)% %RESP(content-type):4% %TRAILER(grpc-status)%"
                        + " %REQ(user-agent):3%\n", Map.of()));

        assertThat(format.capture()).isEqualTo(new HeaderCapture(List.of("user-agent", "x-forwarded-for", "x-real-ip"),
                List.of("content-type"), List.of("grpc-status")));
        StringBuilder out = new StringBuilder();
        format.append(entry(new String[] {"curl/8 \"x\"\n", null, "10.1.1.1"}, new String[] {"text/plain"},
                new String[] {"0"}), out);
        assertThat(out).hasToString("curl/8 \\x22x\\x22\\x0a 10.1.1.1 text 0 cur\n");
    }

    @Test
    void startTimeTakesAStrftimePattern() {
        assertThat(text("%START_TIME(%Y/%m/%d %H:%M:%S %z)%|%START_TIME(%s)%|%START_TIME(%s%3f)%|%START_TIME(%F %T.%6f %a %b %j)%",
                entry(null, null, null)))
                .isEqualTo("2023/11/14 22:13:20 +0000|1700000000|1700000000123|2023-11-14 22:13:20.123000 Tue Nov 318\n");
    }

    @Test
    void gRpcCallsNameTheirServiceAndMethodFromThePath() {
        AccessLogEntry grpc = new AccessLogEntry(START, "h2", "HTTP/2", "POST", "/helloworld.Greeter/SayHello", "x",
                200, 0, 0, 0, null, null, null, "-", "a", null, null, null, null, true, null, null, null, null, null);
        AccessLogEntry bolt = new AccessLogEntry(START, "bolt", "BOLT/1", "echo", "/svc:1.0/echo", "svc:1.0",
                200, 0, 0, 0, null, null, null, "-", "a", null, null, "svc:1.0", "echo", false, null, null, null,
                null, null);

        assertThat(text("%RPC_SERVICE% %RPC_METHOD%", grpc)).isEqualTo("helloworld.Greeter SayHello\n");
        assertThat(text("%RPC_SERVICE% %RPC_METHOD%", bolt)).isEqualTo("svc:1.0 echo\n");
        assertThat(text("%RPC_SERVICE% %RPC_METHOD%", entry(null, null, null))).isEqualTo("- -\n");
    }

    @Test
    void jsonFormatWritesOneObjectPerLineWithTypedValues() throws Exception {
        Map<String, String> format = new LinkedHashMap<>();
        format.put("start", "%START_TIME%");
        format.put("status", "%RESPONSE_CODE%");
        format.put("duration", "%DURATION%");
        format.put("agent", "%REQ(user-agent)%");
        format.put("missing", "%REQ(x-missing)%");
        format.put("route", "route=%ROUTE_NAME% trace=%TRACE_ID%");
        format.put("we \"quote\"", "constant");

        JsonNode line = json(format, entry(new String[] {"a \"b\"\\\n\u0001\u2028", null}, null, null));

        assertThat(line.get("start").asText()).isEqualTo("2023-11-14T22:13:20.123Z");
        assertThat(line.get("status").isInt()).isTrue();
        assertThat(line.get("status").asInt()).isEqualTo(200);
        assertThat(line.get("duration").asLong()).isEqualTo(6);
        assertThat(line.get("agent").asText()).isEqualTo("a \"b\"\\\n\u0001\u2028");
        assertThat(line.get("missing").isNull()).isTrue();
        assertThat(line.get("route").asText()).isEqualTo("route=api trace=-");
        assertThat(line.get("we \"quote\"").asText()).isEqualTo("constant");
        assertThat(List.of(line.fieldNames().next())).containsExactly("start");
    }

    @Test
    void aBadFormatIsRefusedNamingTheOperator() {
        assertThatThrownBy(() -> text("%START_TIME% %NOPE%", null)).isInstanceOf(FormatException.class)
                .hasMessageContaining("unknown operator %NOPE%").hasMessageContaining("RPC_METHOD")
                .extracting(e -> ((FormatException) e).field()).isEqualTo("format");
        assertThatThrownBy(() -> text("%REQ%", null)).hasMessageContaining("%REQ% needs a header name");
        assertThatThrownBy(() -> text("%DURATION:3%", null)).hasMessageContaining("%DURATION% takes no maximum length");
        assertThatThrownBy(() -> text("%PROTOCOL(x)%", null)).hasMessageContaining("%PROTOCOL(x)% takes no argument");
        assertThatThrownBy(() -> text("%START_TIME(%Q)%", null)).hasMessageContaining("unknown directive %Q");
        assertThatThrownBy(() -> text("50% off", null)).hasMessageContaining("a lone % at 2");
        assertThatThrownBy(() -> text("%BYTES_SENT", null)).hasMessageContaining("%BYTES_SENT at 0 is not closed by %");
        assertThatThrownBy(() -> text("%REQ(:scheme)%", null)).hasMessageContaining("pseudo-header :scheme");
        assertThatThrownBy(() -> LineFormats.of(new AccessLogConfig("x", "", Map.of("a", "%X%"))))
                .isInstanceOf(FormatException.class).extracting(e -> ((FormatException) e).field())
                .isEqualTo("json_format.a");
    }
}
