import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * bench/upgrade.sh's load generator: C keep-alive HTTP/1.1 connections, each on its own thread
 * sending GET / and reading the whole response before the next, for S seconds; then one line per
 * second: requests completed, p50 and p99 latency of the requests completed in that second,
 * errors (an exception or a status other than 200; the connection is opened again) and
 * reconnects (after an error, or after a response with Connection: close, which counts as served),
 * after a first line with the wall-clock start in epoch milliseconds. Run with the JDK's source launcher: java bench/UpgradeLoad.java PORT C S.
 */
public final class UpgradeLoad {

    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: bench\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private static final ConcurrentHashMap<Integer, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Integer, AtomicLong> errors = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Integer, AtomicLong> reconnects = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int connections = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        long startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        Thread[] threads = new Thread[connections];
        for (int i = 0; i < connections; i++) {
            threads[i] = new Thread(() -> loop(port, start, end));
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("# started at " + startMillis);
        System.out.println("second requests p50_ms p99_ms errors reconnects");
        for (int s = 0; s < seconds; s++) {
            Long[] l = latencies.getOrDefault(s, new ConcurrentLinkedQueue<>()).toArray(new Long[0]);
            Arrays.sort(l);
            System.out.printf("%d %d %.2f %.2f %d %d%n", s, l.length, percentile(l, 0.50), percentile(l, 0.99),
                    count(errors, s), count(reconnects, s));
        }
    }

    private static void loop(int port, long start, long end) {
        boolean first = true;
        while (System.nanoTime() < end) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(10_000);
                if (!first) {
                    bump(reconnects, second(start));
                }
                first = false;
                OutputStream out = socket.getOutputStream();
                InputStream in = new BufferedInputStream(socket.getInputStream());
                while (System.nanoTime() < end) {
                    long sent = System.nanoTime();
                    out.write(GET);
                    out.flush();
                    int status = readResponse(in);
                    long done = System.nanoTime();
                    if (Math.abs(status) != 200) {
                        bump(errors, second(start));
                        break;
                    }
                    latencies.computeIfAbsent(second(start), s -> new ConcurrentLinkedQueue<>()).add(done - sent);
                    if (status < 0) {
                        break;
                    }
                }
            } catch (IOException e) {
                bump(errors, second(start));
            }
        }
    }

    /** Reads one response with a Content-Length body and returns its status, negated with Connection: close. */
    private static int readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("closed");
        }
        int length = 0;
        boolean close = false;
        String header;
        while (!(header = line(in)).isEmpty()) {
            String lower = header.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        in.skipNBytes(length);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        return close ? -status : status;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                return b.toString();
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.length() == 0 ? null : b.toString();
    }

    private static int second(long start) {
        return (int) ((System.nanoTime() - start) / 1_000_000_000L);
    }

    private static void bump(ConcurrentHashMap<Integer, AtomicLong> map, int second) {
        map.computeIfAbsent(second, s -> new AtomicLong()).incrementAndGet();
    }

    private static long count(ConcurrentHashMap<Integer, AtomicLong> map, int second) {
        AtomicLong n = map.get(second);
        return n == null ? 0 : n.get();
    }

    private static double percentile(Long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
