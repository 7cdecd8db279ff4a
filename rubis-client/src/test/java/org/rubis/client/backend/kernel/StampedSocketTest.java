package org.rubis.client.backend.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The kernel backend's socket against a plain loopback server: it connects, sends, receives, and every exchange
 * carries the kernel's stamps, which are checked against the user-space clock read around them (a transmit stamp
 * cannot precede the clock read before the write, a receive stamp cannot follow the clock read after the read that
 * returned its bytes: both on the run's clock through the anchor), and in order (the request leaves before its reply
 * arrives). The error queue is drained (stamps keep coming over many exchanges), and a refused connect and a reset
 * come back as their errno.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StampedSocketTest {

    private ClockAnchor anchor;
    private KernelLoop.Factory factory;
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;

    @BeforeEach
    void loop() {
        assertNull(Linux.unavailable(), "this test runs on Linux");
        anchor = ClockAnchor.take();
        factory = new KernelLoop.Factory(anchor);
        group = new MultiThreadIoEventLoopGroup(1, factory);
        loop = group.next();
    }

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** What a socket's handler saw. */
    static final class Seen implements StampedSocket.Handler {
        final CompletableFuture<Integer> connected = new CompletableFuture<>();
        final CompletableFuture<Integer> failed = new CompletableFuture<>();
        final CompletableFuture<Boolean> ended = new CompletableFuture<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        volatile CompletableFuture<Void> replied = new CompletableFuture<>();
        int expect;
        long firstRx;
        long lastRx;
        long firstReadNano;
        long lastReadNano;
        int reads;
        int readsWithStamp;

        @Override
        public void connected(int errno) {
            connected.complete(errno);
        }

        @Override
        public void read(byte[] a, int length, long rxNano) {
            long now = System.nanoTime();
            if (firstRx == 0 && firstReadNano == 0) {
                firstRx = rxNano;
                firstReadNano = now;
            }
            lastRx = rxNano;
            lastReadNano = now;
            reads++;
            if (rxNano != 0) {
                readsWithStamp++;
                assertTrue(rxNano <= now, "a receive stamp precedes the read that returned its bytes");
            }
            bytes.write(a, 0, length);
            if (bytes.size() >= expect) {
                replied.complete(null);
            }
        }

        @Override
        public void end() {
            ended.complete(true);
        }

        @Override
        public void failed(int errno) {
            failed.complete(errno);
        }
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> c) throws Exception {
        return loop.submit(c).get(10, TimeUnit.SECONDS);
    }

    @Test
    void exchangesCarryOrderedStampsAndTheErrorQueueIsDrained() throws Exception {
        byte[] reply = "x".repeat(3000).getBytes(StandardCharsets.US_ASCII);
        int exchanges = 200;
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    byte[] req = new byte[5];
                    for (int i = 0; i < exchanges; i++) {
                        int n = 0;
                        while (n < req.length) {
                            int r = in.read(req, n, req.length - n);
                            if (r < 0) {
                                return;
                            }
                            n += r;
                        }
                        out.write(reply);
                        out.flush();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Seen seen = new Seen();
            StampedSocket socket = onLoop(() -> factory.of(loop).socket(seen));
            int started = onLoop(() -> socket.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), null));
            assertEquals(0, started);
            assertEquals(0, seen.connected.get(10, TimeUnit.SECONDS), "connected");
            int stamped = 0;
            for (int i = 0; i < exchanges; i++) {
                Seen s = seen;
                s.replied = new CompletableFuture<>();
                s.expect = (i + 1) * reply.length;
                s.firstRx = 0;
                s.firstReadNano = 0;
                long[] before = new long[1];
                onLoop(() -> {
                    socket.expectReply();
                    before[0] = System.nanoTime();
                    return socket.write("ping!".getBytes(StandardCharsets.US_ASCII), 5);
                });
                s.replied.get(10, TimeUnit.SECONDS);
                long[] tx = onLoop(() -> {
                    socket.drainErrorQueue();
                    return new long[] {socket.txFirstNano(), socket.txLastNano()};
                });
                if (tx[1] != 0) {
                    stamped++;
                    long slack = anchor.uncertaintyNanos();
                    assertTrue(tx[0] + slack >= before[0], "the request left after the clock read before its write");
                    assertTrue(tx[0] <= tx[1], "first byte before last");
                    assertTrue(s.firstRx == 0 || tx[1] <= s.firstRx + slack, "the request left before its reply came");
                    assertTrue(s.firstRx <= s.lastRx, "first reply byte before last");
                }
            }
            served.get(10, TimeUnit.SECONDS);
            assertEquals(exchanges, stamped, "every request got its transmit stamp: the error queue was drained");
            // On a loaded host the kernel now and then hands over bytes without their stamp (2 of 400 reads seen at
            // load 20): the backend then keeps that request's user-space times and counts it (requests_user_times).
            // With the stamps on, nearly every read carries one.
            assertTrue(
                    seen.readsWithStamp >= seen.reads * 0.95,
                    "reads with a receive stamp: " + seen.readsWithStamp + " of " + seen.reads);
            assertTrue(onLoop(socket::txStamps) >= exchanges, "one stamp per send at least");
            assertArrayEquals(
                    ("x".repeat(3000 * exchanges)).getBytes(StandardCharsets.US_ASCII), seen.bytes.toByteArray());
            assertTrue(seen.ended.get(10, TimeUnit.SECONDS), "the server's close is the end");
            onLoop(() -> {
                socket.close();
                return null;
            });
        }
    }

    @Test
    void aRefusedConnectIsEconnrefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Seen seen = new Seen();
        StampedSocket socket = onLoop(() -> factory.of(loop).socket(seen));
        int started = onLoop(() -> socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), null));
        int errno = started != 0 ? started : seen.connected.get(10, TimeUnit.SECONDS);
        assertEquals(Linux.ECONNREFUSED, errno);
    }

    @Test
    void aResetIsEconnreset() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    s.getInputStream().read(new byte[5]);
                    s.setSoLinger(true, 0); // RST on close
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Seen seen = new Seen();
            StampedSocket socket = onLoop(() -> factory.of(loop).socket(seen));
            onLoop(() -> socket.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), null));
            assertEquals(0, seen.connected.get(10, TimeUnit.SECONDS));
            onLoop(() -> socket.write("ping!".getBytes(StandardCharsets.US_ASCII), 5));
            served.get(10, TimeUnit.SECONDS);
            assertEquals(Linux.ECONNRESET, seen.failed.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void theAnchorMapsTheRealtimeClockOntoNanoTime() {
        long before = System.nanoTime();
        java.time.Instant now = java.time.Instant.now();
        long mapped = anchor.toNano(now.getEpochSecond() * 1_000_000_000L + now.getNano());
        long after = System.nanoTime();
        // Instant.now reads the same CLOCK_REALTIME: mapped back it falls between the two reads, within the anchor's
        // uncertainty and a millisecond for the two Instant reads
        assertTrue(mapped >= before - 1_000_000 && mapped <= after + 1_000_000, "mapped " + (mapped - before));
        assertTrue(Math.abs(anchor.driftNanos()) < 1_000_000, "no step of the wall clock during the test");
    }
}
