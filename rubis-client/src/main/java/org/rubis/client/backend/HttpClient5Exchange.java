package org.rubis.client.backend;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One GET through Apache HttpClient 5 (classic, blocking), shared by the pooled and dedicated
 * backends: same headers as the others, no retries, redirects, compression or cookies, and the
 * connection's local address and request count read from the exchange's endpoint details.
 */
final class HttpClient5Exchange {

    private final HttpHost host;
    private final RequestHeaders headers;
    private final ReplyBuffers buffers = new ReplyBuffers();
    private final java.util.Set<HttpGet> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean aborting;

    HttpClient5Exchange(String base) {
        java.net.URI u = java.net.URI.create(base);
        this.host = new HttpHost(u.getScheme(), u.getHost(), u.getPort());
        this.headers = new RequestHeaders(base);
    }

    static ConnectionConfig connectionConfig(int connectTimeoutMs, int requestTimeoutMs) {
        return ConnectionConfig.custom()
                .setConnectTimeout(connectTimeoutMs, TimeUnit.MILLISECONDS)
                .setSocketTimeout(requestTimeoutMs, TimeUnit.MILLISECONDS)
                // A connection idle this long is checked before reuse: one the server closed during
                // a think time is replaced by a new one (logged as a new connection).
                .setValidateAfterInactivity(TimeValue.ofMilliseconds(200))
                .build();
    }

    static SocketConfig socketConfig(int requestTimeoutMs) {
        return SocketConfig.custom().setTcpNoDelay(true).setSoTimeout(Timeout.ofMilliseconds(requestTimeoutMs)).build();
    }

    static CloseableHttpClient client(HttpClientConnectionManager cm, int requestTimeoutMs) {
        return HttpClients.custom()
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
                .setUserAgent(RequestHeaders.USER_AGENT)
                .build();
    }

    /** A GET with the headers every backend sends, in their order. */
    private HttpGet get(String path) {
        HttpGet get = new HttpGet(path);
        headers.forEach(get::setHeader);
        return get;
    }

    void execute(CloseableHttpClient client, String path, Reply out) {
        out.reset();
        boolean connected = false;
        HttpClientContext context = HttpClientContext.create();
        HttpGet get = get(path);
        inFlight.add(get);
        if (aborting) {
            get.cancel();
        }
        out.sent();
        try (ClassicHttpResponse resp = client.executeOpen(host, get, context)) {
            out.ttfbNs = System.nanoTime() - out.sendNano;
            connected = true;
            HttpEntity e = resp.getEntity();
            if (e == null) {
                out.responseNs = out.ttfbNs;
                out.body = "";
            } else {
                out.body = buffers.readAll(e.getContent(), out);
            }
            out.status = resp.getCode();
            long announced = e == null ? -1 : e.getContentLength();
            if (announced >= 0 && out.bytes < announced) {
                out.fail(ErrorClass.TRUNCATED_BODY.label());
                return;
            }
            EndpointDetails ed = context.getEndpointDetails();
            if (ed != null) {
                out.connectionId = id(ed.getLocalAddress());
                out.newConnection = ed.getRequestCount() == 1;
            }
        } catch (IOException | RuntimeException e) {
            out.fail(aborting ? ErrorClass.ABORTED.label() : ErrorClass.of(e, connected).label());
        } finally {
            inFlight.remove(get);
        }
    }

    /** Cancels every request in flight (their connections are closed); later ones fail at once. */
    void abortInFlight() {
        aborting = true;
        for (HttpGet g : inFlight) {
            g.cancel();
        }
    }

    /** Fetches one path and returns the bytes read (images). */
    long fetch(CloseableHttpClient client, String path) throws IOException {
        try (ClassicHttpResponse resp = client.executeOpen(host, get(path), HttpClientContext.create())) {
            HttpEntity e = resp.getEntity();
            return e == null ? 0 : e.getContent().transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    private static String id(SocketAddress a) {
        if (a instanceof InetSocketAddress i) {
            return i.getAddress().getHostAddress() + ":" + i.getPort();
        }
        return a == null ? "" : a.toString();
    }
}
