package org.rubis.client.backend;

import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.DefaultHttpResponseParserFactory;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.rubis.format.run.ErrorClass;

/**
 * One GET through Apache HttpClient 5 (classic, blocking), shared by the pooled and dedicated
 * backends: same headers as the others, no retries, redirects, compression or cookies, and the
 * connection's local address and request count read from the exchange's endpoint details. The whole
 * reply must come within the request timeout ({@link ReplyWatchdog}: HttpClient's own timeout is per
 * read), and a page at most {@link Backend#MAX_PAGE_BYTES} long.
 */
final class HttpClient5Exchange implements AutoCloseable {

    private final HttpHost host;
    private final RequestHeaders headers;
    private final ReplyBuffers buffers = new ReplyBuffers();
    private final int staleCheckMs;
    /** The requests in flight, each cut when its whole reply has not come within the request timeout. */
    private final ReplyWatchdog<HttpGet> inFlight;

    private volatile boolean aborting;

    /**
     * @param staleCheckMs 0: no stale check (default); otherwise a connection idle this long is
     *                     checked before reuse ({@code client_http_stale_check_ms})
     * @param requestTimeoutMs the whole reply's timeout ({@code client_request_timeout_ms})
     */
    HttpClient5Exchange(String base, int staleCheckMs, int requestTimeoutMs) {
        URI u = URI.create(base);
        this.host = new HttpHost(u.getScheme(), u.getHost(), u.getPort());
        this.headers = new RequestHeaders(base);
        this.staleCheckMs = staleCheckMs;
        this.inFlight = new ReplyWatchdog<>("httpclient5", requestTimeoutMs, HttpGet::cancel);
    }

    /**
     * No stale check by default: HttpClient's check is a blocking read of up to 1 ms after the send
     * instant on every connection idle longer than the threshold (after every think time), which
     * the response time would include. A connection the server closed during a think time is
     * handled by {@link StaleConnectionRetry} instead, outside the retried request's window.
     */
    ConnectionConfig connectionConfig(int connectTimeoutMs, int requestTimeoutMs) {
        return ConnectionConfig.custom()
                .setConnectTimeout(connectTimeoutMs, TimeUnit.MILLISECONDS)
                .setSocketTimeout(requestTimeoutMs, TimeUnit.MILLISECONDS)
                .setValidateAfterInactivity(
                        staleCheckMs > 0 ? TimeValue.ofMilliseconds(staleCheckMs) : TimeValue.NEG_ONE_MILLISECOND)
                .build();
    }

    /**
     * Connections whose response parser is strict: HttpClient's default (lenient) parser skips lines
     * that are not a status line, up to a limit, so a server that answers a few lines of non-HTTP
     * bytes and closes looked like a close before any byte; the strict one fails on the first such
     * line, which {@link ErrorClass} names {@code not-http}, as the legacy and netty backends do. A head
     * line longer than {@link HttpReplyParser#MAX_HEAD} is {@code not-http} too (HttpClient's default has
     * no limit), as a head that long is on the other backends.
     */
    static ManagedHttpClientConnectionFactory connections(Http1Config h1) {
        h1 = Http1Config.copy(h1).setMaxLineLength(HttpReplyParser.MAX_HEAD).build();
        return ManagedHttpClientConnectionFactory.builder()
                .http1Config(h1)
                .responseParserFactory(new DefaultHttpResponseParserFactory(h1))
                .build();
    }

    static SocketConfig socketConfig(int requestTimeoutMs) {
        return SocketConfig.custom()
                .setTcpNoDelay(true)
                .setSoTimeout(Timeout.ofMilliseconds(requestTimeoutMs))
                .build();
    }

    static CloseableHttpClient client(HttpClientConnectionManager cm, int requestTimeoutMs) {
        return builder(cm, requestTimeoutMs).build();
    }

    /** The client both backends use, with the send and reply marks of {@link HttpClient5Marks} installed. */
    static HttpClientBuilder builder(HttpClientConnectionManager cm, int requestTimeoutMs) {
        return HttpClient5Marks.install(HttpClients.custom())
                .setConnectionManager(cm)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.ofMilliseconds(requestTimeoutMs))
                        .setResponseTimeout(Timeout.ofMilliseconds(requestTimeoutMs))
                        .setRedirectsEnabled(false)
                        .setProtocolUpgradeEnabled(false) // 5.4 would add "Upgrade: TLS/1.2" to plain requests
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableContentCompression()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableConnectionState()
                .setUserAgent(RequestHeaders.USER_AGENT);
    }

    /** A GET with the headers every backend sends, in their order. */
    private HttpGet get(String path) {
        HttpGet get = new HttpGet(path);
        headers.forEach(get::setHeader);
        return get;
    }

    void execute(CloseableHttpClient client, String path, Reply out) {
        execute(client, path, out, HttpClientContext::create);
    }

    /**
     * As {@link #execute(CloseableHttpClient, String, Reply)} with the caller's contexts (a session's
     * connection token): one fresh context per attempt, so a retry does not see the failed one's endpoint.
     */
    void execute(CloseableHttpClient client, String path, Reply out, Supplier<HttpClientContext> contexts) {
        out.reset();
        while (!attempt(client, path, out, contexts.get())) {
            out.retry();
        }
    }

    /**
     * One attempt; false when it failed in a way {@link StaleConnectionRetry} retries (no response
     * byte on a reused connection). The send is marked before the call, then again at the write
     * of the request ({@link HttpClient5Marks}) once the attempt gets that far.
     */
    private boolean attempt(CloseableHttpClient client, String path, Reply out, HttpClientContext context) {
        boolean connected = false;
        HttpGet get = get(path);
        HttpClient5Marks marks = new HttpClient5Marks(out);
        context.setAttribute(HttpClient5Marks.ATTRIBUTE, marks);
        inFlight.add(get, out);
        if (aborting) {
            get.cancel();
        }
        ClassicHttpResponse resp = null;
        out.markSend();
        try {
            resp = client.executeOpen(host, get, context);
            long opened = System.nanoTime();
            connected = true;
            if (!out.firstByteMarked()) {
                out.markFirstByte(opened); // HttpClient answered without our executor: the call's return is the head
            }
            HttpEntity e = resp.getEntity();
            if (e == null) {
                out.markLastByteAtHead();
                out.body = "";
            } else if (e.getContentLength() > Backend.MAX_PAGE_BYTES) {
                throw new PageTooLarge();
            } else {
                out.body = buffers.readAll(e.getContent(), out, !marks.bodyWithHead());
            }
            out.status = resp.getCode();
            EndpointDetails ed = context.getEndpointDetails();
            if (ed != null) {
                identify(ed, out);
                out.newConnection = ed.getRequestCount() == 1;
            }
            long announced = e == null ? -1 : e.getContentLength();
            if (announced >= 0 && out.bytes < announced) {
                out.fail(ErrorClass.TRUNCATED_BODY);
            }
            resp.close(); // the body was read to its end: the connection goes back for the next request
        } catch (IOException | RuntimeException e) {
            ErrorClass error = aborting
                    ? ErrorClass.ABORTED
                    : inFlight.expired(get)
                            ? ErrorClass.READ_TIMEOUT
                            : e instanceof PageTooLarge ? ErrorClass.TOO_LARGE : ErrorClass.of(e, connected);
            if (resp != null) {
                // closed without reading the rest: HttpClient's close would drain the body first (endless, too large)
                get.cancel();
                closeQuietly(resp);
            }
            EndpointDetails ed = context.getEndpointDetails();
            boolean reused = ed != null && ed.getRequestCount() > 1;
            if (!aborting && StaleConnectionRetry.applies(out, reused, connected, error)) {
                return false;
            }
            out.fail(error);
            if (ed != null) {
                // The attempt had a connection (each attempt has its own context): a request that reached the
                // server and failed there is named by it, as the server's log names it.
                identify(ed, out);
                out.newConnection = out.retries() > 0 || ed.getRequestCount() <= 1;
            }
        } finally {
            inFlight.remove(get);
        }
        return true;
    }

    private static void closeQuietly(ClassicHttpResponse resp) {
        try {
            resp.close();
        } catch (IOException | RuntimeException e) {
            // its connection is closed already
        }
    }

    /** Cancels every request in flight (their connections are closed); later ones fail at once. */
    void abortInFlight() {
        aborting = true;
        for (HttpGet g : inFlight.inFlight()) {
            g.cancel();
        }
    }

    /** Stops the timeout's thread. */
    @Override
    public void close() {
        inFlight.close();
    }

    /** Fetches one path and returns the bytes read (images). */
    long fetch(CloseableHttpClient client, String path) throws IOException {
        return fetch(client, path, HttpClientContext.create());
    }

    /** In the in-flight set like a page: a stop cancels it at once rather than after the request timeout. */
    long fetch(CloseableHttpClient client, String path, HttpClientContext context) throws IOException {
        HttpGet get = get(path);
        inFlight.addImage(get);
        try {
            if (aborting) {
                throw new ImageFetcher.Aborted();
            }
            try (ClassicHttpResponse resp = client.executeOpen(host, get, context)) {
                HttpEntity e = resp.getEntity();
                return e == null ? 0 : e.getContent().transferTo(OutputStream.nullOutputStream());
            }
        } catch (IOException | RuntimeException e) {
            if (aborting) {
                throw new ImageFetcher.Aborted();
            }
            if (inFlight.expired(get)) { // cut at its deadline: its read failed as the connection closed
                throw new SocketTimeoutException("the image did not come within the request timeout");
            }
            throw e;
        } finally {
            inFlight.remove(get);
        }
    }

    /** The connection behind {@code ed}: HttpClient 5 makes one endpoint details object per connection. */
    private static void identify(EndpointDetails ed, Reply out) {
        out.connection = ConnectionIds.of(ed);
        out.localAddress = ConnectionIds.address(ed.getLocalAddress());
    }
}
