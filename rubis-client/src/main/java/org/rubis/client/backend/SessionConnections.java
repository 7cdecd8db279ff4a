package org.rubis.client.backend;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.EndpointInfo;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.BasicHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One shared HttpClient 5 for all sessions of the dedicated backend, each session keeping its own
 * single connection: the lease's state (the request context's user token) is the session's own
 * {@link BasicHttpClientConnectionManager}, which holds at most that session's connection. A
 * session therefore never reuses another's connection (dedicated semantics), while the client,
 * its execution chain, connection operator and connection factory exist once instead of once per
 * session (about 40 KB per user before). A shared pool keyed by state would do the same, but its
 * lease scans every idle connection of the route: at 18,000 users that scan costs more than the
 * exchange itself.
 */
final class SessionConnections implements HttpClientConnectionManager {

    @Override
    public LeaseRequest lease(String id, HttpRoute route, Timeout timeout, Object state) {
        BasicHttpClientConnectionManager own = own(state);
        LeaseRequest inner = own.lease(id, route, timeout, state);
        return new LeaseRequest() {
            @Override
            public ConnectionEndpoint get(Timeout t) throws InterruptedException, ExecutionException, TimeoutException {
                return new Routed(own, inner.get(t));
            }

            @Override
            public boolean cancel() {
                return inner.cancel();
            }
        };
    }

    @Override
    public void release(ConnectionEndpoint endpoint, Object state, TimeValue keepAlive) {
        Routed r = (Routed) endpoint;
        r.owner.release(r.inner, state, keepAlive);
    }

    @Override
    public void connect(ConnectionEndpoint endpoint, TimeValue connectTimeout, HttpContext context) throws IOException {
        Routed r = (Routed) endpoint;
        r.owner.connect(r.inner, connectTimeout, context);
    }

    @Override
    public void upgrade(ConnectionEndpoint endpoint, HttpContext context) throws IOException {
        Routed r = (Routed) endpoint;
        r.owner.upgrade(r.inner, context);
    }

    @Override
    public void close(CloseMode mode) {
        // sessions close their own managers (DedicatedBackend.endSession)
    }

    @Override
    public void close() {
        // as above
    }

    private static BasicHttpClientConnectionManager own(Object state) {
        if (state instanceof BasicHttpClientConnectionManager m) {
            return m;
        }
        throw new IllegalStateException("dedicated backend: a request without its session's connection token");
    }

    /** An endpoint of one session's manager, remembering that manager for release/connect/upgrade. */
    private static final class Routed extends ConnectionEndpoint {
        final BasicHttpClientConnectionManager owner;
        final ConnectionEndpoint inner;

        Routed(BasicHttpClientConnectionManager owner, ConnectionEndpoint inner) {
            this.owner = owner;
            this.inner = inner;
        }

        @Override
        @SuppressWarnings("deprecation") // still abstract in ConnectionEndpoint: a delegate implements and forwards it
        public ClassicHttpResponse execute(
                String id, ClassicHttpRequest request, HttpRequestExecutor executor, HttpContext context)
                throws IOException, HttpException {
            return inner.execute(id, request, executor, context);
        }

        @Override
        public ClassicHttpResponse execute(
                String id, ClassicHttpRequest request, RequestExecutor executor, HttpContext context)
                throws IOException, HttpException {
            return inner.execute(id, request, executor, context);
        }

        @Override
        public boolean isConnected() {
            return inner.isConnected();
        }

        @Override
        public void setSocketTimeout(Timeout timeout) {
            inner.setSocketTimeout(timeout);
        }

        @Override
        public EndpointInfo getInfo() {
            return inner.getInfo();
        }

        @Override
        public void close(CloseMode mode) {
            inner.close(mode);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
