package org.rubis.client.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.log.EpochAnchor;
import org.rubis.client.report.SummarySection;
import org.rubis.client.warmup.WarmupLoad;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.SectionStatus;

/**
 * The reference probe ({@code run --probe}): one extra connection to the same target, a cheap page at a
 * low rate, timed the simplest way there is (System.nanoTime() before the write and after each read of
 * a blocking, or busy-polled, java.nio SocketChannel; no library, no thread hand-off). Its error against
 * the wire is the floor of this host: what any JVM client pays here, so that a backend's error can be
 * split into that floor and our own overhead above it. Its requests carry {@link RunFiles#PROBE_QUERY}
 * and go to probe.csv only: never into the run's statistics.
 */
public final class ReferenceProbe implements RunObserver {

    /** Requests sent back to back before the measured ones (JIT, socket buffers, server caches); flagged warmup. */
    public static final int WARMUP = 50;
    /** The page asked for: the static home page, the cheapest page of the application. */
    public static final String PATH = "/PHP/index.html?" + RunFiles.PROBE_QUERY;

    private final double rate;
    private final boolean busyPoll;
    private final PrintStream out;
    private InetSocketAddress target;
    private byte[] request;
    private SocketChannel channel;
    private String connectionId = "";
    private BufferedWriter csv;
    private EpochAnchor anchor;
    private Thread thread;
    private volatile boolean stop;
    private String failure;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
    private byte[] head = new byte[1 << 14];
    private long measured;
    private long errors;
    private long[] responses = new long[256];
    private int n;

    public ReferenceProbe(double rate, boolean busyPoll, PrintStream out) {
        this.rate = rate;
        this.busyPoll = busyPoll;
        this.out = out;
    }

    @Override
    public void beforeRun(String baseUrl, Path runDir) throws IOException {
        if (!aim(baseUrl)) {
            failure = "the probe speaks plain HTTP only; " + baseUrl + " is not http://";
            out.println("warning: probe: " + failure + "; the run goes on without it");
            return;
        }
        csv = Files.newBufferedWriter(RunFiles.probe(runDir), StandardCharsets.UTF_8);
        csv.write(Columns.header(Columns.PROBE));
        csv.write('\n');
        for (int i = 0; i < WARMUP; i++) {
            exchange(true);
        }
        thread = new Thread(this::loop, "rubis-reference-probe");
        thread.setDaemon(true);
        thread.start();
        out.println(String.format(
                Locale.ROOT,
                "Reference probe: %s%s at %.1f/s on its own connection (%s) -> %s",
                PATH,
                busyPoll ? " busy-polled" : " blocking",
                rate,
                connectionId,
                RunFiles.probe(runDir)));
    }

    /** Sets the target, the request bytes and the clock anchors; false when the base URL is not plain http. */
    private boolean aim(String baseUrl) {
        URI u = URI.create(baseUrl);
        if (!"http".equals(u.getScheme())) {
            return false;
        }
        target = new InetSocketAddress(u.getHost(), u.getPort() < 0 ? 80 : u.getPort());
        String host = u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
        request = ("GET " + PATH
                        + " HTTP/1.1\r\nUser-Agent: rubis-client/0.1 (reference probe)\r\nAccept: */*\r\nHost: " + host
                        + "\r\nConnection: keep-alive\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        anchor = EpochAnchor.take();
        return true;
    }

    /**
     * The JIT warm-up of the probe (it is the floor, so it must start as compiled as the backends): a
     * second probe with the same mode aimed at the warm-up's stub, its lines written nowhere, driven
     * through the same exchange as the measured requests. Never touches the target or probe.csv.
     */
    @Override
    public WarmupLoad warmupLoad(String stubBase) {
        ReferenceProbe p = new ReferenceProbe(rate, busyPoll, out);
        if (!p.aim(stubBase)) {
            return null;
        }
        p.csv = new BufferedWriter(Writer.nullWriter());
        return new WarmupLoad() {
            @Override
            public String name() {
                return "reference probe";
            }

            @Override
            public void once() throws IOException {
                long before = p.errors;
                p.exchange(false);
                if (p.errors != before) {
                    throw new IOException("the stub's reply failed");
                }
            }

            @Override
            public void close() {
                p.close();
            }
        };
    }

    private void loop() {
        long period = Math.round(1e9 / rate);
        long next = System.nanoTime() + period;
        while (!stop) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            next += period;
            try {
                exchange(false);
            } catch (IOException e) {
                failure = "probe.csv: " + e.getMessage();
                return;
            }
        }
    }

    /** One request: the timed part is only the write and the read loop. */
    private void exchange(boolean warmup) throws IOException {
        long send;
        long first = -1;
        long last;
        int status = 0;
        long bytes = 0;
        String error = "";
        long sendNano = System.nanoTime();
        try {
            if (channel == null || !channel.isOpen()) {
                connect();
            }
            ByteBuffer req = ByteBuffer.wrap(request);
            sendNano = System.nanoTime();
            while (req.hasRemaining()) {
                channel.write(req);
            }
            int headLen = 0;
            long need = -1;
            while (true) {
                buffer.clear();
                int r = channel.read(buffer);
                if (r == 0) {
                    continue; // busy-poll: nothing yet
                }
                if (r < 0) {
                    throw new IOException("the server closed the connection");
                }
                if (first < 0) {
                    first = System.nanoTime();
                }
                bytes += r;
                if (need < 0) {
                    buffer.flip();
                    if (headLen + r > head.length) {
                        head = Arrays.copyOf(head, Math.max(head.length * 2, headLen + r));
                    }
                    buffer.get(head, headLen, r);
                    headLen += r;
                    int end = headerEnd(head, headLen);
                    if (end >= 0) {
                        String h = new String(head, 0, end, StandardCharsets.ISO_8859_1);
                        status = Integer.parseInt(h.substring(9, 12));
                        need = end + contentLength(h);
                    }
                }
                if (need >= 0 && bytes >= need) {
                    break;
                }
            }
            last = System.nanoTime();
        } catch (IOException | RuntimeException e) {
            last = System.nanoTime();
            error = e instanceof IOException ? "io" : "protocol";
            close();
        }
        send = sendNano;
        long ttfb = first < 0 ? -1 : first - send;
        long response = last - send;
        if (!warmup) {
            record(response, !error.isEmpty() || status != 200);
        }
        csv.write(anchor.epochNs(send) + "," + connectionId + "," + PATH + "," + status + "," + ttfb + "," + response
                + "," + bytes + "," + warmup + "," + error + "\n");
    }

    private void connect() throws IOException {
        channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.connect(target);
        channel.configureBlocking(!busyPoll);
        InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
        connectionId = local.getAddress().getHostAddress() + ":" + local.getPort();
    }

    private void close() {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void record(long response, boolean error) {
        measured++;
        if (error) {
            errors++;
            return;
        }
        if (n == responses.length) {
            responses = Arrays.copyOf(responses, n * 2);
        }
        responses[n++] = response;
    }

    private static int headerEnd(byte[] b, int len) {
        for (int i = 3; i < len; i++) {
            if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            int c = line.indexOf(':');
            if (c > 0 && line.substring(0, c).trim().equalsIgnoreCase("Content-Length")) {
                return Long.parseLong(line.substring(c + 1).trim());
            }
        }
        throw new IllegalStateException("no Content-Length in the probe's response");
    }

    @Override
    public void afterRun(Path runDir) throws IOException {
        if (thread == null) {
            return;
        }
        stop = true;
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
        close();
        csv.close();
    }

    /**
     * The uncertainty of the probe's own epoch anchor (ns, the nanoTime bracket around its wall-clock
     * reading), or -1 before the probe started; the wire check's send/receive split of the probe is off
     * by up to half of it.
     */
    public long anchorBracketNs() {
        return anchor == null ? -1 : anchor.bracketNs();
    }

    /** The probe's own figures (its times by its own clock); with a capture, the wire check gives its floor. */
    @Override
    public SummarySection summarySection(Path runDir) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        String text;
        if (failure != null && measured == 0) {
            o.put("status", SectionStatus.NOT_RUN.label());
            o.put("reason", failure);
            text = "Reference probe\n  not run: " + failure + "\n";
        } else {
            long[] v = Arrays.copyOf(responses, n);
            Arrays.sort(v);
            o.put("requests", measured);
            o.put("errors", errors);
            o.put("rate_per_s", rate);
            o.put("mode", busyPoll ? "busy-poll" : "blocking");
            o.put("path", PATH);
            o.put("anchor_bracket_ns", anchorBracketNs());
            o.put("response_p50_us", n == 0 ? 0 : v[(n - 1) / 2] / 1000.0);
            o.put("response_p99_us", n == 0 ? 0 : v[(int) Math.ceil(0.99 * n) - 1] / 1000.0);
            text = String.format(
                    Locale.ROOT,
                    "Reference probe%n  %d requests (%d errors) on its own connection, %s, %.1f/s; response p50 %.1f us, "
                            + "p99 %.1f us (its own clock; run with --capture for the floor)%n",
                    measured,
                    errors,
                    busyPoll ? "busy-poll" : "blocking",
                    rate,
                    o.get("response_p50_us").asDouble(),
                    o.get("response_p99_us").asDouble());
        }
        return new Section(o, text);
    }

    private record Section(JsonNode json, String text) implements SummarySection {
        @Override
        public String key() {
            return "probe";
        }
    }
}
