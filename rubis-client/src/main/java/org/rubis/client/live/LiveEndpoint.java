package org.rubis.client.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live view's HTTP endpoint (docs/LIVE.md): {@code /metrics} for Prometheus (the official client's handler:
 * OpenMetrics, text or protobuf as the scraper asks, so native histograms reach a Prometheus that wants them), the
 * live page at {@code /} with its script and uPlot (from its WebJar, served from the jar: no network needed), the
 * page's feed {@code /live.json} and, at the end, {@code /summary.json}. Only GET and HEAD are served; nothing it
 * serves changes anything.
 *
 * <p>It must never slow the run: two daemon threads of their own serve it, with a bounded queue (what does not fit is
 * refused, the run goes on), every answer is built from snapshots, never from the run's statistics, and {@code
 * /metrics} answers at most {@link ScrapeLimit#PER_SECOND} scrapes a second ({@link ScrapeLimit}).
 */
public final class LiveEndpoint implements AutoCloseable {

    /** Threads serving requests: enough for a scraper and a page, few enough to leave the cores to the run. */
    static final int THREADS = 2;
    /** Requests waiting beyond that; more are refused, their connections closed (a flood costs the run nothing). */
    static final int QUEUE = 256;

    private static final String UPLOT = "META-INF/resources/webjars/uplot/";

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final String uplotVersion = uplotVersion();
    private volatile LiveFeed feed;
    private volatile PrometheusRegistry registry;
    private volatile LiveRun run;

    private final ScrapeLimit scrapes;

    private LiveEndpoint(HttpServer server, ThreadPoolExecutor executor, ScrapeLimit scrapes) {
        this.server = server;
        this.executor = executor;
        this.scrapes = scrapes;
    }

    /**
     * Listens on {@code address:port} at once (before the run starts, so that a port in use stops it before anything
     * else); serves 503 until {@link #serve} gives it something to show.
     *
     * @throws java.net.BindException when the port is in use or the address is not this host's
     */
    public static LiveEndpoint bind(String address, int port) throws IOException {
        return bind(address, port, ScrapeLimit.perSecond());
    }

    /** As {@link #bind(String, int)}, answering the scrapes {@code scrapes} allows. */
    static LiveEndpoint bind(String address, int port, ScrapeLimit scrapes) throws IOException {
        // The JDK server's limits, unless the user set them: a client that sends or reads slowly holds a thread for
        // 10 or 30 s at most; at most 64 connections at once (the run's own connections need the file descriptors).
        System.getProperties().putIfAbsent("sun.net.httpserver.maxReqTime", "10");
        System.getProperties().putIfAbsent("sun.net.httpserver.maxRspTime", "30");
        System.getProperties().putIfAbsent("jdk.httpserver.maxConnections", "64");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 64);
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                THREADS,
                THREADS,
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                r -> {
                    Thread t = new Thread(r, "live-endpoint-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy()); // the JDK server closes a connection it cannot hand over
        executor.allowCoreThreadTimeOut(true);
        LiveEndpoint e = new LiveEndpoint(server, executor, scrapes);
        server.createContext("/", e::handle);
        server.setExecutor(executor);
        server.start();
        return e;
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Serves one run: its page, feed, summary and metrics. */
    public void serve(LiveRun r) {
        run = r;
        registry = r.registry();
        feed = r;
    }

    /** Serves a page only (a view of shards: each shard serves its own metrics). */
    public void serve(LiveFeed f) {
        feed = f;
    }

    private final MetricsHandlerHolder metrics = new MetricsHandlerHolder();

    /** The Prometheus client's handler, made once the registry is known. */
    private final class MetricsHandlerHolder {
        private HttpHandler handler;
        private PrometheusRegistry of;

        synchronized HttpHandler get(PrometheusRegistry r) {
            if (handler == null || of != r) {
                handler = new MetricsHandler(r);
                of = r;
            }
            return handler;
        }
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                x.getResponseHeaders().set("Allow", "GET, HEAD");
                send(x, 405, "text/plain", "only GET and HEAD: this endpoint serves, it changes nothing\n");
                return;
            }
            URI uri = x.getRequestURI();
            String path = uri.getPath();
            switch (path) {
                case "/metrics" -> metrics(x);
                case "/", "/index.html" -> resource(x, "index.html", "text/html; charset=utf-8");
                case "/live.js" -> resource(x, "live.js", "text/javascript; charset=utf-8");
                case "/live.css" -> resource(x, "live.css", "text/css; charset=utf-8");
                case "/uPlot.iife.min.js" -> webjar(x, "dist/uPlot.iife.min.js", "text/javascript; charset=utf-8");
                case "/uPlot.min.css" -> webjar(x, "dist/uPlot.min.css", "text/css; charset=utf-8");
                case "/live.json" -> liveJson(x, uri.getQuery());
                case "/summary.json" -> summaryJson(x);
                default ->
                    send(
                            x,
                            404,
                            "text/plain",
                            "not found; this endpoint serves /, /metrics, /live.json, /summary.json\n");
            }
        } catch (RuntimeException e) {
            // A failure answering must never reach the run; the client sees a closed connection.
        }
    }

    private void metrics(HttpExchange x) throws IOException {
        PrometheusRegistry r = registry;
        if (r == null) {
            send(
                    x,
                    404,
                    "text/plain",
                    "no metrics here: a sharded run's shards serve theirs (their ports were printed)\n");
            return;
        }
        long now = System.nanoTime();
        if (!scrapes.tryAcquire(now)) {
            x.getResponseHeaders().set("Retry-After", String.valueOf(scrapes.retryAfterSeconds(now)));
            send(
                    x,
                    429,
                    "text/plain",
                    "too many scrapes: this endpoint answers " + ScrapeLimit.PER_SECOND
                            + " a second, so that scrapers cannot move the run's figures\n");
            return;
        }
        metrics.get(r).handle(x);
    }

    private void liveJson(HttpExchange x, String query) throws IOException {
        LiveFeed f = feed;
        if (f == null) {
            send(x, 503, "text/plain", "the run is starting\n");
            return;
        }
        Map<String, String> q = Query.parse(query);
        long from = Query.number(q.get("from"), 0);
        boolean hist = "1".equals(q.get("hist"));
        x.getResponseHeaders().set("Cache-Control", "no-store");
        send(x, 200, "application/json", f.json(from, hist));
    }

    private void summaryJson(HttpExchange x) throws IOException {
        LiveRun r = run;
        LiveFeed f = feed;
        String s = r != null ? r.summary() : f instanceof ShardsFeed sf ? sf.summary() : null;
        if (s == null) {
            send(x, 404, "text/plain", "no summary yet: the run has not ended\n");
            return;
        }
        send(x, 200, "application/json", s);
    }

    private void resource(HttpExchange x, String name, String type) throws IOException {
        try (InputStream in = LiveEndpoint.class.getResourceAsStream(name)) {
            if (in == null) {
                send(x, 404, "text/plain", "missing from the jar: " + name + "\n");
                return;
            }
            send(x, 200, type, in.readAllBytes());
        }
    }

    private void webjar(HttpExchange x, String file, String type) throws IOException {
        String path = UPLOT + uplotVersion + "/" + file;
        try (InputStream in = ClassLoader.getSystemClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                send(x, 404, "text/plain", "uPlot is missing from the jar\n");
                return;
            }
            x.getResponseHeaders().set("Cache-Control", "max-age=86400");
            send(x, 200, type, in.readAllBytes());
        }
    }

    /** The uPlot WebJar's version, from its Maven metadata (the path of its files holds it). */
    private static String uplotVersion() {
        try (InputStream in = ClassLoader.getSystemClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void send(HttpExchange x, int status, String type, String body) throws IOException {
        send(x, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops listening and lets the threads end. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
