package io.tollgate.discovery.dubbo;

import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.tollgate.protocols.dubbo.DubboProtocol;
import io.tollgate.protocols.dubbo.DubboStatus;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One call of {@code getMetadataInfo(revision)} on a Dubbo 3 provider's own
 * {@code org.apache.dubbo.metadata.MetadataService}, as a Dubbo consumer makes it: the dubbo
 * protocol, hessian2, the service in the application's group at version {@code 1.0.0}, on the port
 * the instance's {@code dubbo.metadata-service.url-params} name. One short connection per call,
 * blocking and bounded by a deadline: it runs only on the {@link MetadataFetcher}'s own thread.
 */
final class MetadataServiceCall {

    static final String SERVICE = "org.apache.dubbo.metadata.MetadataService";
    private static final String METHOD = "getMetadataInfo";
    private static final String DUBBO_VERSION = "2.0.2";
    /** The largest answer read: a MetadataInfo of hundreds of services is well under it. */
    private static final int MAX_BODY = 8 << 20;
    private static final AtomicLong REQUEST_IDS = new AtomicLong();
    private static final SerializerFactory FIELD_MAPS = new FieldMaps();

    private MetadataServiceCall() {
    }

    /**
     * Asks {@code instance} for its application's MetadataInfo of {@code revision}, within {@code timeout}.
     *
     * @throws IOException when the provider cannot be reached, answers an error or no MetadataInfo of that revision
     */
    static MetadataInfo call(DubboInstance instance, String revision, Duration timeout) throws IOException {
        String protocol = instance.metadataServiceParameter("protocol", "dubbo");
        if (!"dubbo".equals(protocol)) {
            throw new IOException("MetadataService exported over " + protocol + " (only dubbo is called)");
        }
        int port = port(instance.metadataServiceParameter("port", ""), instance.endpointPort("dubbo"));
        String version = instance.metadataServiceParameter("version", "1.0.0");
        long deadline = System.nanoTime() + timeout.toNanos();
        long id = REQUEST_IDS.incrementAndGet();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(instance.address(), port), millisLeft(deadline));
            OutputStream out = socket.getOutputStream();
            out.write(request(id, instance.application(), version, revision, timeout));
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            while (true) {
                socket.setSoTimeout(millisLeft(deadline));
                byte[] header = new byte[DubboProtocol.HEADER_LENGTH];
                in.readFully(header);
                ByteBuffer head = ByteBuffer.wrap(header);
                if (head.getShort() != DubboProtocol.MAGIC) {
                    throw new IOException(instance.address() + ":" + port + " answered no Dubbo frame");
                }
                int flag = head.get() & 0xff;
                int status = head.get() & 0xff;
                long responseId = head.getLong();
                int length = head.getInt();
                if (length < 0 || length > MAX_BODY) {
                    throw new IOException("answer body of " + length + " bytes (at most " + MAX_BODY + ")");
                }
                byte[] body = new byte[length];
                in.readFully(body);
                if ((flag & (DubboProtocol.FLAG_REQUEST | DubboProtocol.FLAG_EVENT)) == 0 && responseId == id) {
                    int serialization = flag & DubboProtocol.SERIALIZATION_MASK;
                    if (serialization != DubboProtocol.SERIALIZATION_HESSIAN2) {
                        throw new IOException("answer in serialization " + serialization + ", not hessian2");
                    }
                    return answer(status, body, revision);
                }
                // a heartbeat or another frame: not the answer
            }
        }
    }

    private static int port(String configured, int fallback) {
        try {
            return configured.isEmpty() ? fallback : Integer.parseInt(configured);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static int millisLeft(long deadline) throws SocketTimeoutException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("MetadataService call timed out");
        }
        return (int) Math.min(left, Integer.MAX_VALUE);
    }

    /** The request frame: header, then Dubbo's request body in hessian2. */
    static byte[] request(long id, String application, String version, String revision, Duration timeout)
            throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(body);
        out.writeString(DUBBO_VERSION);
        out.writeString(SERVICE);
        out.writeString(version);
        out.writeString(METHOD);
        out.writeString("Ljava/lang/String;");
        out.writeString(revision);
        Map<String, Object> attachments = new HashMap<>();
        attachments.put("path", SERVICE);
        attachments.put("interface", SERVICE);
        attachments.put("version", version);
        attachments.put("group", application);
        attachments.put("timeout", Long.toString(timeout.toMillis()));
        out.writeObject(attachments);
        out.flushBuffer();
        ByteBuffer frame = ByteBuffer.allocate(DubboProtocol.HEADER_LENGTH + body.size());
        int flag = DubboProtocol.FLAG_REQUEST | DubboProtocol.FLAG_TWO_WAY | DubboProtocol.SERIALIZATION_HESSIAN2;
        frame.putShort(DubboProtocol.MAGIC).put((byte) flag).put((byte) 0).putLong(id)
                .putInt(body.size()).put(body.toByteArray());
        return frame.array();
    }

    /** Reads an answer's body: Dubbo's response type, then the value or the exception. */
    private static MetadataInfo answer(int status, byte[] body, String revision) throws IOException {
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body));
        in.setSerializerFactory(FIELD_MAPS);
        try {
            if (status != DubboStatus.OK.code()) {
                throw new IOException("status " + status + ": " + in.readObject());
            }
            int type = in.readInt();
            switch (type) {
                case 1, 4 -> {
                    MetadataInfo info = MetadataInfo.fromMap(in.readObject());
                    if (!revision.equals(info.revision())) {
                        throw new IOException("asked for revision " + revision + ", got " + info.revision());
                    }
                    return info;
                }
                case 2, 5 -> throw new IOException("the provider has no MetadataInfo of revision " + revision);
                case 0, 3 -> throw new IOException("MetadataService threw " + in.readObject());
                default -> throw new IOException("unknown Dubbo response type " + type);
            }
        } catch (IllegalArgumentException | IllegalStateException | ClassCastException e) {
            throw new IOException("unreadable MetadataService answer: " + e.getMessage(), e);
        }
    }

    /**
     * Reads every object of a class outside {@code java.*} as the map of its fields: no class the
     * provider names is ever loaded (Dubbo's own classes may not be on the gateway's class path).
     */
    private static final class FieldMaps extends SerializerFactory {
        @Override
        public Deserializer getDeserializer(String type) throws HessianProtocolException {
            return type == null || !type.startsWith("java.") ? null : super.getDeserializer(type);
        }
    }
}
