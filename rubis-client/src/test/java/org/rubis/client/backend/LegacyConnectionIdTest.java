package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The legacy backend names a connection the JDK closed on its response ({@code Connection: close},
 * as Apache does on its 100th keep-alive request) by the address:port the server saw, not
 * {@code 0.0.0.0:PORT} nor the target's address. The target is 127.0.0.2 so that the local address
 * (127.0.0.1, the loopback route's source) differs from the remote one.
 */
class LegacyConnectionIdTest {

    @Test
    void aConnectionClosedOnItsResponseIsNamedAsTheServerSawIt() throws Exception {
        InetAddress target = InetAddress.getByName("127.0.0.2");
        try (ServerSocket server = new ServerSocket(0, 10, target)) {
            String[] seen = new String[1];
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = server.accept();
                        InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream()) {
                    seen[0] = s.getInetAddress().getHostAddress() + ":" + s.getPort();
                    int state = 0;
                    int c;
                    while (state < 4 && (c = in.read()) >= 0) {
                        state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3))
                                ? state + 1
                                : 0;
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                            .getBytes(StandardCharsets.ISO_8859_1));
                } catch (Exception e) {
                    // reported by the assertions
                }
            });
            try (LegacyBackend b = (LegacyBackend)
                    TestBackends.create("legacy", "http://127.0.0.2:" + server.getLocalPort(), 5000, false)) {
                Reply r = new Reply();
                b.execute(b.startSession(), "/close", r);
                t.join(5000);
                assertEquals(200, r.status, r.errorLabel());
                assertEquals(seen[0], r.localAddress);
            }
        }
    }
}
