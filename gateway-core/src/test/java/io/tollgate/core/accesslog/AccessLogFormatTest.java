package io.tollgate.core.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessLogFormatTest {

    static final long START = 1_700_000_000_123L; // 2023-11-14T22:13:20.123Z

    static AccessLogEntry entry(String path, int status) {
        return new AccessLogEntry(START, "http", "HTTP/1.1", "GET", path, "example.com", status,
                12, 345, 6_789, "10.0.0.1:8081", "api", "req-1", "-", "127.0.0.1:50000",
                "spiffe://tollgate/client", null, null, null, false, null, null, null, null, null);
    }

    @Test
    void writesEveryFieldInTheDocumentedOrder() {
        assertThat(format(entry("/a/b?c=d", 200))).isEqualTo("[2023-11-14T22:13:20.123Z] \"GET /a/b?c=d HTTP/1.1\" 200 - "
                + "12 345 6.789 \"req-1\" \"example.com\" \"10.0.0.1:8081\" http api 127.0.0.1:50000 spiffe://tollgate/client\n");
    }

    @Test
    void writesMissingValuesAsDash() {
        AccessLogEntry e = new AccessLogEntry(START, "http", "HTTP/1.1", null, null, "", 400,
                0, 11, 42, null, null, null, "DPE", "127.0.0.1:50000", null, null, null, null, false, null, null, null, null,
                null);

        assertThat(format(e)).isEqualTo("[2023-11-14T22:13:20.123Z] \"- - HTTP/1.1\" 400 DPE 0 11 0.042 \"-\" \"-\" \"-\" "
                + "http - 127.0.0.1:50000 -\n");
    }

    @Test
    void escapesClientValuesSoARequestCannotForgeALine() {
        String line = format(entry("/x\" 200 -\n[fake] \\", 404));

        assertThat(line).contains("\"GET /x\\x22\\x20200\\x20-\\x0a[fake]\\x20\\x5c HTTP/1.1\" 404");
        assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
    }

    @Test
    void joinsResponseFlagCodesWithCommas() {
        assertThat(ResponseFlag.codes(List.of())).isEqualTo(ResponseFlag.NONE).isEqualTo("-");
        assertThat(ResponseFlag.codes(EnumSet.of(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, ResponseFlag.NO_HEALTHY_UPSTREAM)))
                .isEqualTo("UH,UT");
    }

    private static String format(AccessLogEntry e) {
        StringBuilder out = new StringBuilder();
        AccessLogFormat.append(e, out);
        return out.toString();
    }
}
