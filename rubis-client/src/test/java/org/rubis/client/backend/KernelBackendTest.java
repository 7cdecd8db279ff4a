package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * The kernel backend against the embedded server: pages come back as on netty (the same bytes, the same images), on
 * one keep-alive connection per session, and every reply carries the kernel's four stamps in the order the bytes
 * moved, inside the user-space window: the send mark, then the request's first and last bytes leaving, then the reply's
 * first and last bytes arriving, then the user-space end mark. The published times are the kernel's and no longer
 * than the user-space ones they replace.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KernelBackendTest {

    private static RubisServer server;

    @BeforeAll
    static void start() throws Exception {
        server = FaultyServer.start(RubisServer.Model.EVENT, "delay=0:0.0", null);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static Backend backend(String kind, boolean images) {
        ClientConfig c = ConfigLoader.load(
                (Path) null, Map.of("client_backend", kind, "client_download_images", images ? "yes" : "no"));
        return Backends.create(c.execution(), "http://127.0.0.1:" + server.port());
    }

    @Test
    void repliesCarryTheKernelsStampsInTheOrderTheBytesMoved() throws Exception {
        try (Backend b = backend("kernel", false)) {
            long slack = ((KernelBackend) b).anchor().uncertaintyNanos();
            Backend.Session s = b.startSession();
            Long connection = null;
            for (int i = 0; i < 50; i++) {
                Reply r = new Reply();
                Backends.execute(b, s, "/PHP/index.html", r);
                assertEquals("", r.errorLabel());
                assertEquals(200, r.status);
                assertTrue(r.body.contains("RUBiS"), "the page itself");
                assertEquals(i == 0, r.newConnection, "one keep-alive connection for the session");
                if (connection == null) {
                    connection = r.connection;
                    assertTrue(connection > 0, "a serial: " + connection);
                    assertTrue(r.localAddress.startsWith("127.0.0.1:"), r.localAddress);
                }
                assertEquals(connection, r.connection, "the same connection");
                assertTrue(r.kernelPublished(), "the kernel's times are published");
                long userSend = r.userSendNano();
                long userEnd = userSend + r.userResponseNs();
                assertTrue(r.txFirstNano() != 0 && r.txLastNano() != 0, "transmit stamps");
                assertTrue(r.rxFirstNano() != 0 && r.rxLastNano() != 0, "receive stamps");
                assertTrue(userSend <= r.txFirstNano() + slack, "the request left after the send mark");
                assertTrue(r.txFirstNano() <= r.txLastNano(), "first request byte before its last");
                assertTrue(r.txLastNano() <= r.rxFirstNano() + slack, "the request left before the reply came");
                assertTrue(r.rxFirstNano() <= r.rxLastNano(), "first reply byte before its last");
                assertTrue(r.rxLastNano() <= userEnd + slack, "the reply came before the user-space end mark");
                assertTrue(r.responseNs() <= r.userResponseNs() + 2 * slack, "kernel time inside the user-space one");
                assertTrue(r.ttfbNs() <= r.responseNs());
                if (!r.newConnection) {
                    assertEquals(r.txFirstNano(), r.sendNano(), "a reused connection's send is the first byte's stamp");
                } else {
                    assertEquals(userSend, r.sendNano(), "a new connection's window keeps its connect");
                }
            }
            b.endSession(s);
        }
    }

    @Test
    void pagesAndImagesAreThoseNettyGets() throws Exception {
        Reply kernel = new Reply();
        Reply netty = new Reply();
        try (Backend b = backend("kernel", true)) {
            Backend.Session s = b.startSession();
            Backends.execute(b, s, "/PHP/index.html", kernel);
            b.endSession(s);
        }
        try (Backend b = backend("netty", true)) {
            Backend.Session s = b.startSession();
            Backends.execute(b, s, "/PHP/index.html", netty);
            b.endSession(s);
        }
        assertEquals(netty.errorLabel(), kernel.errorLabel());
        assertEquals(netty.body, kernel.body);
        assertEquals(netty.bytes, kernel.bytes);
        assertTrue(netty.images > 0, "the page has images");
        assertEquals(netty.images, kernel.images);
        assertEquals(netty.imageBytes, kernel.imageBytes);
        assertFalse(kernel.failed());
    }
}
