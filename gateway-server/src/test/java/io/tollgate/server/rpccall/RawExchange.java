package io.tollgate.server.rpccall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.json.ExactJson;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One request frame written on a real socket to a provider and its response frame read back whole,
 * by the frame's own length fields: Dubbo (16-byte header, body length at 12) or Bolt v1 (20-byte
 * response header, three lengths at 14). Every read is bounded by a 10 s socket timeout.
 */
final class RawExchange implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;

    RawExchange(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
    }

    /** Writes {@code request} (and releases it), reads one Dubbo frame. */
    ByteBuf dubbo(ByteBuf request) throws IOException {
        write(request);
        byte[] header = new byte[16];
        in.readFully(header);
        int bodyLength = Unpooled.wrappedBuffer(header).getInt(12);
        return frame(header, bodyLength);
    }

    /** Writes {@code request} (and releases it), reads one Bolt v1 response frame. */
    ByteBuf bolt(ByteBuf request) throws IOException {
        write(request);
        byte[] header = new byte[20];
        in.readFully(header);
        ByteBuf view = Unpooled.wrappedBuffer(header);
        int rest = view.getUnsignedShort(12) + view.getUnsignedShort(14) + view.getInt(16);
        return frame(header, rest);
    }

    private ByteBuf frame(byte[] header, int rest) throws IOException {
        byte[] body = new byte[rest];
        in.readFully(body);
        return Unpooled.wrappedBuffer(header, body);
    }

    private void write(ByteBuf request) throws IOException {
        try {
            socket.getOutputStream().write(ByteBufUtil.getBytes(request));
            socket.getOutputStream().flush();
        } finally {
            request.release();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** {@code json} with every object's keys sorted, as text: answers compare whatever order a map kept. */
    static String canonical(String json) {
        return ExactJson.write(sorted(ExactJson.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    }

    static String canonical(JsonNode node) {
        return ExactJson.write(sorted(node));
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            node.properties().forEach(entry -> fields.put(entry.getKey(), sorted(entry.getValue())));
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            List<JsonNode> elements = new ArrayList<>();
            node.forEach(element -> elements.add(sorted(element)));
            return JsonNodeFactory.instance.arrayNode().addAll(elements);
        }
        return node;
    }
}
