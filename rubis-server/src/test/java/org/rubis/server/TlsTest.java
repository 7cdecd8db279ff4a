package org.rubis.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.format.io.Tls;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.http.ServerSettings;

/** HTTPS in both models; the ground truth tells full from resumed handshakes. */
class TlsTest {

    @TempDir
    Path out;

    static SSLContext trustAll() throws Exception {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(
                null,
                new TrustManager[] {
                    new X509TrustManager() {
                        @Override
                        public void checkClientTrusted(X509Certificate[] chain, String type) {}

                        @Override
                        public void checkServerTrusted(X509Certificate[] chain, String type) {}

                        @Override
                        public X509Certificate[] getAcceptedIssuers() {
                            return new X509Certificate[0];
                        }
                    }
                },
                null);
        return c;
    }

    /** One connection from {@code client}: a GET of the home page; returns the status line. */
    static String get(SSLContext client, int port) throws Exception {
        try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.startHandshake();
            OutputStream o = s.getOutputStream();
            o.write("GET /PHP/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            o.flush();
            InputStream in = s.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return reply.lines().findFirst().orElse("");
        }
    }

    private List<String> handshakes(RubisServer.Model model, boolean resumption) throws Exception {
        Path dir = out.resolve(model + "-" + resumption);
        ServerSettings st =
                new ServerSettings("127.0.0.1", 0, 5000, 0, 15, 15, 5, 200, 128, 2, Tls.load(null, null, resumption));
        try (RubisServer s = new RubisServer(model, st, DataPolicy.load(null, 0.005, 1), dir, null, Map.of())) {
            int port = s.start();
            SSLContext client = trustAll(); // one client context: it offers its session back
            for (int i = 0; i < 3; i++) {
                assertEquals("HTTP/1.1 200 OK", get(client, port), model.name());
            }
        }
        return Files.readAllLines(dir.resolve("connections.csv")).stream()
                .skip(1)
                .map(l -> l.substring(l.lastIndexOf(',') + 1))
                .toList();
    }

    @Test
    void resumptionOnLetsAReturningClientResume() throws Exception {
        for (RubisServer.Model m : RubisServer.Model.values()) {
            List<String> kinds = handshakes(m, true);
            assertEquals(3, kinds.size(), m.name());
            assertEquals("full", kinds.get(0), m.name() + ": the first handshake is full");
            assertTrue(kinds.subList(1, 3).contains("resumed"), m.name() + ": a returning client resumes: " + kinds);
        }
    }

    @Test
    void resumptionOffMakesEveryHandshakeFull() throws Exception {
        for (RubisServer.Model m : RubisServer.Model.values()) {
            assertEquals(List.of("full", "full", "full"), handshakes(m, false), m.name());
        }
    }
}
