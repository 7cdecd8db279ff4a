package org.rubis.client.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Counted from the kernel's tables against the connections this test opened itself: the client ends only (the
 * listening side's accepted sockets have the target's port as their local port), established ones only.
 */
class OpenConnectionsTest {

    @SuppressWarnings("try") // one of the connections is closed early, to see the count fall
    @Test
    void countsThisProcesssEstablishedConnectionsToThePort() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/net/tcp")), "Linux /proc only");
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 50, lo);
                ServerSocket other = new ServerSocket(0, 50, lo)) {
            OpenConnections c = new OpenConnections(server.getLocalPort());
            assertEquals(0, c.count());
            try (Socket a = new Socket(lo, server.getLocalPort());
                    Socket b = new Socket(lo, server.getLocalPort());
                    Socket elsewhere = new Socket(lo, other.getLocalPort());
                    Socket accepted = server.accept()) {
                assertEquals(2, c.count(), "two to the port (the accepted end and another port's are not counted)");
                b.close();
                assertEquals(1, c.count());
            }
            assertEquals(0, c.count());
        }
    }
}
