package org.rubis.client.backend;

import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The one place where requests are built: every backend sends {@code GET path HTTP/1.1} with these
 * headers, in this order, so that backends differ only in their connection policy. The order is the
 * one the JDK's HttpURLConnection uses (the legacy backend); the others copy it. A backend builds
 * its request object from {@link #forEach} before it takes the send mark.
 */
public final class RequestHeaders {

    public static final String USER_AGENT = "rubis-client/0.1";
    public static final String ACCEPT = "*/*";
    public static final String CONNECTION = "keep-alive";

    /** Headers the JDK's HttpURLConnection adds itself (and refuses to take from us). */
    static final List<String> JDK_SUPPLIED = List.of("Host", "Connection");

    private final List<String[]> headers;

    /** The headers for requests to a base URL such as {@code http://127.0.0.1:8080}. */
    public RequestHeaders(String base) {
        this.headers = List.of(
                new String[] {"User-Agent", USER_AGENT},
                new String[] {"Accept", ACCEPT},
                new String[] {"Host", host(base)},
                new String[] {"Connection", CONNECTION});
    }

    /** Hands each header, in order, to the backend's request builder. */
    public void forEach(BiConsumer<String, String> header) {
        for (String[] h : headers) {
            header.accept(h[0], h[1]);
        }
    }

    /** The Host header value for a base URL such as {@code http://127.0.0.1:8080}. */
    public static String host(String base) {
        URI u = URI.create(base);
        return u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
    }
}
