package org.rubis.client.backend;

import java.io.IOException;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The instants of one HttpClient 5 attempt taken where the request really leaves and its reply
 * really arrives, instead of around {@code executeOpen}. HttpClient's own work between a mark taken
 * before {@code executeOpen} and the socket write (context set-up, route planning, protocol
 * interceptors, the execution chain) cost about 100 us per request even compiled, so the pooled and
 * dedicated backends measured their own library rather than the server.
 *
 * <p>One rule decides what stays inside the response time: the wait for a connection and its
 * set-up are the request's, the client's CPU around them is not. The exchange's execution chain
 * gets two interceptors around its connect step ({@link ChainElement#CONNECT}, which leases a
 * connection from the pool or the session's own manager, checks it if a stale check is configured,
 * and connects and handshakes a new one), and a request executor that marks the send just before it
 * writes the request head and flushes it, at that instant minus the time the connect step took
 * ({@link Reply#markSendAtWrite}), and the first byte once the response head has been read: a pooled
 * request that waited for a free connection, or one that opened a new connection, still has that
 * wait or that connect in its response time; a request on a reused connection is measured from (a
 * few microseconds before) its write.
 *
 * <p>When the whole body came in with the head (Content-Length known and already buffered), the
 * response ended at the read that returned the head, so that instant is its last byte, as the netty
 * backend stamps the read that completes a response before decoding it; otherwise the body's last
 * read ends it ({@link ReplyBuffers}).
 *
 * <p>A context attribute carries one instance per attempt; a request without it (an image fetch)
 * is not marked.
 */
final class HttpClient5Marks {

    static final String ATTRIBUTE = "org.rubis.http-client-5-marks";

    private final Reply reply;
    private long connectStepStartNano;
    private long connectStepEndNano;
    private boolean bodyWithHead;

    /** The marks of one attempt, taken into {@code reply}. */
    HttpClient5Marks(Reply reply) {
        this.reply = reply;
    }

    /** The builder with the two connect-step interceptors and the marking request executor. */
    static HttpClientBuilder install(HttpClientBuilder builder) {
        return builder.addExecInterceptorBefore(
                        ChainElement.CONNECT.name(),
                        "rubis-connect-step-start",
                        stamp((m, now) -> m.connectStepStartNano = now))
                .addExecInterceptorAfter(
                        ChainElement.CONNECT.name(),
                        "rubis-connect-step-end",
                        stamp((m, now) -> m.connectStepEndNano = now))
                .setRequestExecutor(new MarkingExecutor());
    }

    /**
     * True when the whole body was in HttpClient's buffer with the head: its last byte is marked already
     * (the head's instant), and reading the body only drains the buffer.
     */
    boolean bodyWithHead() {
        return bodyWithHead;
    }

    private interface Stamp {
        void at(HttpClient5Marks marks, long nanoTime);
    }

    private static ExecChainHandler stamp(Stamp stamp) {
        return (request, scope, chain) -> {
            if (scope.clientContext.getAttribute(ATTRIBUTE) instanceof HttpClient5Marks m) {
                stamp.at(m, System.nanoTime());
            }
            return chain.proceed(request, scope);
        };
    }

    /**
     * Marks the send at the write of the request head (minus the connect step, computed before the stamp),
     * the first byte at the response head, and the last byte there too when the body came with the head;
     * otherwise HttpClient's own executor.
     */
    private static final class MarkingExecutor extends HttpRequestExecutor {
        @Override
        public ClassicHttpResponse execute(
                ClassicHttpRequest request,
                HttpClientConnection conn,
                HttpResponseInformationCallback informationCallback,
                HttpContext context)
                throws IOException, HttpException {
            if (!(context.getAttribute(ATTRIBUTE) instanceof HttpClient5Marks m)) {
                return super.execute(request, conn, informationCallback, context);
            }
            Reply reply = m.reply;
            long connectStep = Math.max(0, m.connectStepEndNano - m.connectStepStartNano);
            reply.markSendAtWrite(System.nanoTime(), connectStep);
            ClassicHttpResponse response = super.execute(request, conn, informationCallback, context);
            long head = System.nanoTime();
            reply.markFirstByte(head);
            HttpEntity e = response.getEntity();
            if (e != null) {
                long length = e.getContentLength();
                // ContentLengthInputStream.available(): what the connection's buffer already holds of the body
                m.bodyWithHead = length >= 0
                        && length <= Integer.MAX_VALUE
                        && e.getContent().available() >= length;
                if (m.bodyWithHead) {
                    reply.markLastByte(head);
                }
            }
            return response;
        }
    }
}
