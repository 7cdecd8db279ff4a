package org.rubis.client.backend;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/** Maps a failure to the short error class written in the request log. */
public final class ErrorClass {

    private ErrorClass() {}

    public static String of(Throwable e, boolean connected) {
        if (e.getClass().getSimpleName().equals("ConnectTimeoutException")) {
            return "connect-timeout";
        }
        if (e instanceof SocketTimeoutException || e instanceof java.net.http.HttpTimeoutException
                || e instanceof java.util.concurrent.TimeoutException) {
            String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (m.contains("connect")) {
                return "connect-timeout";
            }
            return m.contains("read") || connected ? "read-timeout" : "connect-timeout";
        }
        if (e instanceof ConnectException) {
            String m = String.valueOf(e.getMessage());
            return m.contains("timed out") ? "connect-timeout" : "connect-refused";
        }
        if (e instanceof UnknownHostException || e instanceof NoRouteToHostException) {
            return "unreachable";
        }
        if (e instanceof FileNotFoundException) {
            return "http-404";
        }
        if (e instanceof SocketException) {
            return "connection-reset";
        }
        if (e instanceof OutOfMemoryError) {
            return "out-of-memory";
        }
        if (e instanceof IOException) {
            return "io";
        }
        return e.getClass().getSimpleName();
    }
}
