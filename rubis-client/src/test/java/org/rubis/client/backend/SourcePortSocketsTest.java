package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** The sockets that choose their own source port: the port they take, a taken port skipped, and the connection's real source. */
class SourcePortSocketsTest {

    private static final InetAddress SECOND = addr(127, 0, 0, 2);

    private static InetAddress addr(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A port free on 127.0.0.2 just now (bound by the kernel, then released without a connection: no TIME_WAIT). */
    private static int freePort() throws Exception {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(SECOND, 0));
            return s.getLocalPort();
        }
    }

    @Test
    void aSourceAddressWithPortZeroGetsTheNextPortOfTheRangeAndConnectsFromIt() throws Exception {
        int p = freePort();
        SourcePortSockets f = new SourcePortSockets(new int[] {p, p});
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                Socket s = f.create(null)) {
            s.bind(new InetSocketAddress(SECOND, 0));
            assertEquals(p, s.getLocalPort());
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 5000);
            try (Socket accepted = server.accept()) {
                assertEquals(
                        new InetSocketAddress(SECOND, p),
                        accepted.getRemoteSocketAddress(),
                        "the server sees the chosen source address and port");
            }
        }
    }

    @Test
    void aPortTakenOnThatAddressIsSkippedAndAFullRangeFallsBackToTheKernel() throws Exception {
        try (Socket taken = new Socket()) {
            taken.bind(new InetSocketAddress(SECOND, 0));
            int p = taken.getLocalPort();
            SourcePortSockets f = new SourcePortSockets(new int[] {p, p});
            try (Socket s = f.create(null)) {
                s.bind(new InetSocketAddress(SECOND, 0));
                assertTrue(s.isBound());
                assertNotEquals(p, s.getLocalPort(), "the only port of the range is taken: the kernel chose");
                assertEquals(SECOND, s.getLocalAddress());
            }
        }
    }

    @Test
    void eachAddressWalksTheRangeOnItsOwn() {
        SourcePortSockets f = new SourcePortSockets(new int[] {40000, 40009});
        InetAddress one = addr(127, 0, 0, 1);
        int a = f.nextPort(one);
        int b = f.nextPort(one);
        f.nextPort(SECOND);
        int c = f.nextPort(one);
        assertEquals(40000 + (a - 40000 + 1) % 10, b);
        assertEquals(40000 + (b - 40000 + 1) % 10, c, "another address's ports do not advance this one's");
        for (int i = 0; i < 25; i++) {
            int q = f.nextPort(SECOND);
            assertTrue(q >= 40000 && q <= 40009, "within the range: " + q);
        }
    }

    @Test
    void aBindWithoutASourceAddressOrWithAGivenPortIsLeftAsAsked() throws Exception {
        int p = freePort();
        SourcePortSockets f = new SourcePortSockets(new int[] {p, p});
        try (Socket s = f.create(null)) {
            s.bind(new InetSocketAddress(0));
            assertTrue(s.getLocalAddress().isAnyLocalAddress());
        }
        int q = freePort();
        try (Socket s = f.create(null)) {
            s.bind(new InetSocketAddress(SECOND, q));
            assertEquals(q, s.getLocalPort());
        }
    }
}
