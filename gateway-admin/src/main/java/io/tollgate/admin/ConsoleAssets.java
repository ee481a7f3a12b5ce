package io.tollgate.admin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The browser console's files, read once from the admin jar: nothing is fetched from elsewhere,
 * so the console works offline and under a Content-Security-Policy that allows only this origin.
 */
final class ConsoleAssets {

    private static final String ROOT = "/io/tollgate/admin/ui/";

    /** Path under the admin API to the file's name and content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/ui", new String[] {"index.html", "text/html; charset=utf-8"},
            "/ui/console.css", new String[] {"console.css", "text/css; charset=utf-8"},
            "/ui/console.js", new String[] {"console.js", "text/javascript; charset=utf-8"},
            "/ui/chart.js", new String[] {"chart.js", "text/javascript; charset=utf-8"});

    private ConsoleAssets() {
    }

    /** Each file's admin path and its answer, read now. */
    static Map<String, AdminResponse> load() {
        Map<String, AdminResponse> answers = new LinkedHashMap<>();
        FILES.forEach((path, file) -> answers.put(path,
                new AdminResponse(HttpResponseStatus.OK, file[1], read(file[0]))));
        return answers;
    }

    private static String read(String name) {
        try (InputStream in = ConsoleAssets.class.getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
