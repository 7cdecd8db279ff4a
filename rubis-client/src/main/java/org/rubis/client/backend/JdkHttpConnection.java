package org.rubis.client.backend;

import java.lang.reflect.Field;
import java.net.HttpURLConnection;

/**
 * The JDK's own connection object behind an {@link HttpURLConnection}, whose internals the legacy backend reads (which
 * socket carried a request, whether it came from the keep-alive cache) and sets (do not resend). For http it is the
 * connection itself; for https the public object is a wrapper ({@code HttpsURLConnectionImpl}) around a delegate of the
 * http class, so the same internals are reached through it: without that, the JDK's silent resend of an https request
 * stayed possible. Needs the jar's {@code Add-Opens} of {@code sun.net.www.protocol.https}; without access the wrapper
 * is returned and the callers fall back as for any JDK whose internals differ.
 */
final class JdkHttpConnection {

    private static final Field DELEGATE; // sun.net.www.protocol.https.HttpsURLConnectionImpl.delegate

    static {
        Field delegate = null;
        try {
            delegate = Class.forName("sun.net.www.protocol.https.HttpsURLConnectionImpl")
                    .getDeclaredField("delegate");
            delegate.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            delegate = null; // not this JDK's internals, or no access
        }
        DELEGATE = delegate;
    }

    private JdkHttpConnection() {}

    /** The http connection object carrying {@code c}'s internals: {@code c} itself, or an https wrapper's delegate. */
    static Object of(HttpURLConnection c) {
        if (DELEGATE == null || !DELEGATE.getDeclaringClass().isInstance(c)) {
            return c;
        }
        try {
            Object d = DELEGATE.get(c);
            return d == null ? c : d;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return c;
        }
    }
}
