package org.rubis.client.backend;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import org.rubis.client.backend.kernel.KernelLoop;
import org.rubis.client.backend.kernel.Linux;
import org.rubis.client.backend.kernel.StampedSocket;
import org.rubis.format.run.ErrorClass;

/**
 * One kernel-backend session: its own keep-alive connection (a {@link StampedSocket}), the request in flight and its
 * reply, as {@link LoopSession} runs them for both event-loop backends, so that this one differs from
 * {@link NettySession} only in its I/O: here the user-space marks are taken around our own reads and writes, and the
 * kernel's stamps of the same bytes are added to the reply after it ended ({@link Reply#markKernel}).
 */
final class KernelSession extends LoopSession<StampedSocket, KernelBackend> implements StampedSocket.Handler {

    final KernelLoop io;
    final InetAddress source;
    /** What the connect in progress writes once connected (the page's or an image's path). */
    String pendingPath;
    /** The kernel's receive stamps of the exchange's first and latest reads (0 before). */
    long rxFirst;

    long rxLast;

    KernelSession(KernelBackend backend, EventLoop loop, KernelLoop io, LoopDeadlines deadlines, InetAddress source) {
        super(backend, loop, deadlines);
        this.io = io;
        this.source = source;
    }

    @Override
    boolean reusable() {
        return conn != null && conn.isOpen() && !conn.connecting();
    }

    @Override
    void transmit(boolean reuse) {
        carrier = null;
        if (reuse) {
            byte[] a = backend.request(path);
            int n = backend.requestLength();
            newConnection = false;
            long sent = out.markSend();
            awaiting = true;
            deadlines.add(this);
            write(a, n, sent);
            return;
        }
        long sent = out.markSend();
        awaiting = true;
        deadlines.add(this);
        newConnection = true;
        close(detach());
        open(path, sent);
    }

    /** Opens a new connection that writes {@code requestPath} once connected. */
    private void open(String requestPath, long now) {
        pendingPath = requestPath;
        StampedSocket s = io.socket(this);
        int err = s.connect(backend.target, source);
        if (err != 0) {
            failRequest(connectError(err));
            return;
        }
        conn = s;
        int connectTimeoutMs = backend.connectTimeoutMs;
        if (connectTimeoutMs > 0) {
            connectTimer = loop.schedule(
                    () -> {
                        connectTimer = null;
                        if (awaiting && conn == s && s.connecting()) {
                            close(detach());
                            failRequest(ErrorClass.CONNECT_TIMEOUT);
                        }
                    },
                    Math.max(0, now + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMs) - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void connected(int errno) {
        cancelConnectTimer();
        if (!awaiting) {
            close(detach());
            return;
        }
        if (errno != 0) {
            close(detach());
            failRequest(connectError(errno));
            return;
        }
        connection = 0; // named at its first reply: a page reusing an image's new connection names that one
        byte[] a = backend.request(pendingPath);
        write(a, backend.requestLength(), System.nanoTime());
    }

    /** The class of a connect's errno, as the other backends classify the same failure. */
    static ErrorClass connectError(int errno) {
        return switch (errno) {
            case Linux.ECONNREFUSED -> ErrorClass.REFUSED;
            case Linux.ETIMEDOUT -> ErrorClass.CONNECT_TIMEOUT;
            case Linux.ENETUNREACH, Linux.EHOSTUNREACH -> ErrorClass.UNREACHABLE;
            case Linux.ECONNRESET, Linux.ECONNABORTED, Linux.EPIPE -> ErrorClass.RESET;
            default -> ErrorClass.IO; // EMFILE, ENFILE (no socket), EADDRNOTAVAIL and the like
        };
    }

    /** The class of a failed read or write on a connected socket. */
    static ErrorClass transferError(int errno, boolean anyByte) {
        return switch (errno) {
            case Linux.ECONNRESET, Linux.EPIPE, Linux.ECONNABORTED -> ErrorClass.RESET;
            case Linux.ETIMEDOUT -> ErrorClass.READ_TIMEOUT;
            default -> anyByte ? ErrorClass.TRUNCATED_BODY : ErrorClass.IO;
        };
    }

    /** Writes the request's {@code n} bytes; the deadline counts from {@code now}, an instant taken right before. */
    private void write(byte[] a, int n, long now) {
        firstByte = 0;
        lastRead = 0;
        rxFirst = 0;
        rxLast = 0;
        resetParser();
        StampedSocket s = conn;
        s.expectReply();
        int err = s.write(a, n);
        if (err != 0) {
            failed(err);
            return;
        }
        carrier = s;
        if (awaiting) {
            deadlines.deadline(this, now + backend.requestTimeoutNs);
        }
    }

    @Override
    public void read(byte[] a, int length, long rxNano) {
        long now = System.nanoTime();
        if (firstByte == 0) {
            firstByte = now;
            rxFirst = rxNano;
        }
        lastRead = now;
        rxLast = rxNano;
        read(a, length, ByteBufAllocator.DEFAULT);
    }

    @Override
    void afterEndMarks() {
        StampedSocket s = conn;
        s.drainErrorQueue(); // after the end mark: the transmit stamps of this request's bytes
        out.markKernel(s.txFirstNano(), s.txLastNano(), rxFirst, rxLast);
        if (backend.publishKernel) {
            out.newConnection = newConnection; // publishKernel keeps a new connection's user-space send mark
            out.publishKernel();
        }
    }

    @Override
    void closeConnection(StampedSocket s) {
        s.close();
    }

    @Override
    String localAddressOf(StampedSocket s) {
        return s.localAddress();
    }

    @Override
    ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    void fetchImage(String imagePath) {
        if (reusable()) {
            write(backend.request(imagePath), backend.requestLength(), System.nanoTime());
            return;
        }
        close(detach());
        open(imagePath, System.nanoTime());
    }

    /** The peer closed: a reply framed by the close is complete; one in progress ends as the close says. */
    @Override
    public void end() {
        closed(0);
    }

    @Override
    public void failed(int errno) {
        closed(errno);
    }

    private void closed(int errno) {
        StampedSocket closing = conn;
        if (errno == 0 && endOfInput()) {
            if (conn == closing) {
                close(detach());
            } else {
                close(closing);
            }
            return;
        }
        boolean partial = inReply() || firstByte != 0;
        close(detach());
        ErrorClass error = errno != 0
                ? transferError(errno, partial)
                : partial ? ErrorClass.TRUNCATED_BODY : ErrorClass.CLOSED_BEFORE_ANY_BYTE;
        if (!imageFailed(error)) {
            failOrRetry(error);
        }
    }
}
