package io.tollgate.filters.trace.export;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.util.List;

/**
 * POSTs each batch, as its {@link BatchEncoder} makes the body, to the settings' endpoint with the
 * settings' content type, waiting at most the timeout to connect and again for the answer; any
 * status but 2xx fails the batch.
 *
 * @param <T> the span type
 */
public final class HttpBatchSender<T> implements BatchSender<T> {

    private final BatchSettings settings;
    private final BatchEncoder<T> encoder;

    public HttpBatchSender(BatchSettings settings, BatchEncoder<T> encoder) {
        this.settings = settings;
        this.encoder = encoder;
    }

    @Override
    public int send(List<T> batch) throws IOException {
        byte[] body = encoder.encode(batch);
        HttpURLConnection connection = (HttpURLConnection) settings.endpoint().toURL().openConnection();
        connection.setConnectTimeout((int) settings.timeout().toMillis());
        connection.setReadTimeout((int) settings.timeout().toMillis());
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setFixedLengthStreamingMode(body.length);
        connection.setRequestProperty("Content-Type", settings.contentType());
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        int status = connection.getResponseCode();
        try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
            if (in != null) {
                in.readAllBytes();
            }
        }
        if (status / 100 != 2) {
            throw new IOException("answered " + status);
        }
        return batch.size();
    }
}
