package org.rubis.client.backend;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.HttpURLConnection;
import java.util.concurrent.locks.Lock;

/**
 * Ends the legacy backend's requests in flight (Ctrl-C) without making the JDK send any request a
 * second time.
 *
 * <p>Why not {@link HttpURLConnection#disconnect()} from the stopping thread: for a request still
 * waiting for its response it marks the connection "do not resend" and then closes its socket, two
 * steps with nothing holding the connection in between. When the response arrives between them (the
 * stopping thread preempted, as on a loaded host where 20 user threads wake at the stop), the JDK's
 * parse of that response clears the mark, the request ends normally and its connection goes back to
 * the keep-alive cache, another request in flight takes it and writes; the late close then fails
 * that request with no response byte and no mark, and the JDK silently resends it on a new
 * connection. The server receives it twice, the client logs it once: the count after Ctrl-C that
 * was one higher on the server (docs/DEVELOPING.md, Conventions; LegacyAbortTest).
 *
 * <p>Here both steps run while holding the lock of the JDK's keep-alive cache, the one place a
 * connection passes from one request to the next (returned by a finished request, taken by the next
 * one), so the request a close fails is the one that was marked, and the JDK does not resend it. The
 * request's own write retry (a write that failed sends again on a new connection) is switched off
 * too. A request still opening its connection is not reached, as with {@code disconnect()}.
 *
 * <p>This reads JDK internals (the jar's {@code Add-Opens}; for https through the wrapper's delegate,
 * {@link JdkHttpConnection}); without access it falls back to {@code disconnect()}.
 */
final class LegacyAbort {

    private static final Field HTTP; // sun.net.www.protocol.http.HttpURLConnection.http
    private static final Field WRITE_RETRIED; // sun.net.www.protocol.http.HttpURLConnection.failedOnce
    private static final Method DO_NOT_RETRY; // sun.net.www.http.HttpClient.setDoNotRetry(boolean)
    private static final Method CLOSE; // sun.net.www.http.HttpClient.closeServer()
    private static final Lock CACHE_LOCK; // sun.net.www.http.HttpClient.kac.cacheLock

    static {
        Field http = null;
        Field retried = null;
        Method doNotRetry = null;
        Method close = null;
        Lock lock = null;
        try {
            Class<?> connection = Class.forName("sun.net.www.protocol.http.HttpURLConnection");
            Class<?> client = Class.forName("sun.net.www.http.HttpClient");
            http = accessible(connection.getDeclaredField("http"));
            retried = accessible(connection.getDeclaredField("failedOnce"));
            doNotRetry = client.getMethod("setDoNotRetry", boolean.class);
            close = client.getMethod("closeServer");
            doNotRetry.setAccessible(true);
            close.setAccessible(true);
            Object cache = accessible(client.getDeclaredField("kac")).get(null);
            lock = (Lock)
                    accessible(cache.getClass().getDeclaredField("cacheLock")).get(cache);
        } catch (ReflectiveOperationException | RuntimeException e) {
            lock = null; // not this JDK's internals, or no access: disconnect()
        }
        HTTP = http;
        WRITE_RETRIED = retried;
        DO_NOT_RETRY = doNotRetry;
        CLOSE = close;
        CACHE_LOCK = lock;
    }

    /** Tests: runs between a connection's "do not resend" mark and its close (where a preempted thread would stop). */
    private Runnable betweenMarkAndClose = () -> {};

    private static Field accessible(Field f) {
        f.setAccessible(true);
        return f;
    }

    /** False on a JDK whose internals differ: {@link #abort} then uses {@code disconnect()}. */
    static boolean exact() {
        return CACHE_LOCK != null;
    }

    LegacyAbort betweenMarkAndClose(Runnable hook) {
        this.betweenMarkAndClose = hook;
        return this;
    }

    /** Ends each request: its blocking read (or write) fails at once and the JDK does not send it again. */
    void abort(Iterable<HttpURLConnection> inFlight) {
        if (!exact()) {
            for (HttpURLConnection c : inFlight) {
                c.disconnect();
            }
            return;
        }
        CACHE_LOCK.lock(); // no connection changes hands until every mark has its close
        try {
            for (HttpURLConnection c : inFlight) {
                abort(c);
            }
        } finally {
            CACHE_LOCK.unlock();
        }
    }

    private void abort(HttpURLConnection c) {
        try {
            WRITE_RETRIED.setBoolean(
                    JdkHttpConnection.of(c), true); // a write that fails now is not sent again on a new connection
            Object client = HTTP.get(JdkHttpConnection.of(c));
            if (client == null) {
                return; // still opening its connection (or taking one from the cache): not reached, as with
                // disconnect()
            }
            DO_NOT_RETRY.invoke(client, true); // a read that fails now is not sent again
            betweenMarkAndClose.run();
            CLOSE.invoke(client);
        } catch (ReflectiveOperationException | RuntimeException e) {
            c.disconnect();
        }
    }
}
