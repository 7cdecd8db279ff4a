package org.rubis.client.backend.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * Asks this kernel, once before a run, whether it gives what the kernel backend publishes: on a loopback TCP
 * connection to a listener of its own, it turns the time stamps on, sends a byte and reads one back, and checks
 * that the read carried a receive stamp and the send's transmit stamp came on the error queue. A kernel or a
 * sandbox that refuses the option, or gives no stamps, is said in words, so that the run is refused rather than
 * published on user-space times.
 */
public final class KernelProbe {

    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private KernelProbe() {}

    /** Why the stamps are not available here, or null when they are. */
    public static String refusal() {
        String os = Linux.unavailable();
        if (os != null) {
            return os;
        }
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            KernelLoop l = new KernelLoop(ClockAnchor.take());
            try {
                return probe(l, server);
            } finally {
                l.destroy();
            }
        } catch (IOException e) {
            return "the loopback probe of the kernel's time stamps failed (" + e.getMessage() + ")";
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String probe(KernelLoop l, ServerSocket server) throws IOException {
        Linux.Errno e = l.errno;
        int fd = Linux.socket(e, Linux.AF_INET, Linux.SOCK_STREAM | Linux.SOCK_CLOEXEC);
        if (fd < 0) {
            return "socket() failed (errno " + e.value() + ")";
        }
        try {
            int len = StampedSocket.sockaddr(l.address, server.getInetAddress(), server.getLocalPort());
            if (Linux.connect(e, fd, l.address, len) < 0) {
                return "a loopback connect failed (errno " + e.value() + ")";
            }
            try (Socket peer = server.accept()) {
                if (Linux.setInt(e, fd, Linux.SOL_SOCKET, Linux.SO_TIMESTAMPING, Linux.TIMESTAMPING) < 0) {
                    return "the kernel refused the socket option SO_TIMESTAMPING (errno " + e.value() + ")";
                }
                l.out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 'p');
                if (Linux.send(e, fd, l.out, 1, Linux.MSG_NOSIGNAL) != 1) {
                    return "a loopback send failed (errno " + e.value() + ")";
                }
                InputStream in = peer.getInputStream();
                if (in.read() < 0) {
                    return "the loopback probe's byte did not arrive";
                }
                // Receive stamping is switched on for the stack by deferred work when the first socket asks: a few
                // exchanges may pass unstamped, so the probe exchanges bytes until one is stamped or the wait is over.
                long deadline = System.nanoTime() + WAIT_NANOS;
                boolean stamped = false;
                while (!stamped && System.nanoTime() < deadline) {
                    peer.getOutputStream().write('q');
                    peer.getOutputStream().flush();
                    long n;
                    while ((n = l.receive(fd, 1, 0)) == -Linux.EAGAIN && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    if (n != 1) {
                        return "the loopback probe's reply did not arrive (" + n + ")";
                    }
                    stamped = l.lastStamp != 0;
                    if (!stamped) {
                        sleepQuietly();
                    }
                }
                if (!stamped) {
                    return "the kernel gives no software receive stamps (SOF_TIMESTAMPING_RX_SOFTWARE)";
                }
                boolean tx = false;
                deadline = System.nanoTime() + WAIT_NANOS;
                while (!tx && System.nanoTime() < deadline) {
                    long m = l.receive(fd, 0, Linux.MSG_ERRQUEUE);
                    tx = m >= 0 && l.lastTxId >= 0 && l.lastTxStamp != 0;
                    if (m < 0) {
                        Thread.onSpinWait();
                    }
                }
                if (!tx) {
                    return "the kernel gives no software transmit stamps (SOF_TIMESTAMPING_TX_SOFTWARE)";
                }
                return null;
            }
        } finally {
            Linux.close(e, fd);
        }
    }
}
