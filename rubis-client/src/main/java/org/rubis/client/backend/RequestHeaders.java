package org.rubis.client.backend;

/**
 * The request headers every backend sends, in this order, so that backends differ only in their
 * connection policy: {@code GET path HTTP/1.1}, User-Agent, Accept, Host, Connection. This is the
 * order the JDK's HttpURLConnection uses (the legacy backend); the others copy it.
 */
public final class RequestHeaders {

    public static final String USER_AGENT = "rubis-client/0.1";
    public static final String ACCEPT = "*/*";
    public static final String CONNECTION = "keep-alive";

    private RequestHeaders() {}

    /** The Host header value for a base URL such as {@code http://127.0.0.1:8080}. */
    public static String host(String base) {
        java.net.URI u = java.net.URI.create(base);
        return u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort();
    }
}
