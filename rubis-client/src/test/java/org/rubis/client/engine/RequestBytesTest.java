package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;

/** Every backend sends the same bytes for the same request: only the connection policy differs. */
class RequestBytesTest {

    @TempDir Path tmp;
    private ServerSocket server;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private static final String PAGE = "<html>Home</html>";

    @BeforeEach
    void capture() throws Exception {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (Exception e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                int c;
                while ((c = in.read()) >= 0) {
                    head.write(c);
                    byte[] b = head.toByteArray();
                    int n = b.length;
                    if (n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n') {
                        break;
                    }
                }
                if (c < 0) {
                    return;
                }
                heads.add(head.toString(StandardCharsets.ISO_8859_1));
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + PAGE.length() + "\r\nConnection: keep-alive\r\n\r\n" + PAGE)
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (Exception e) {
            // client went away
        }
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private String base() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private ClientConfig config(String backend) {
        return ConfigLoader.load((Path) null, Map.of("client_backend", backend, "client_target", base(), "workload_maximum_number_of_transitions", "1",
                "workload_session_run_time_in_ms", "5000", "workload_up_ramp_time_in_ms", "0", "workload_down_ramp_time_in_ms", "0"));
    }

    private String viaBlocking(String backend) {
        ClientConfig c = config(backend);
        try (Backend b = Backends.create(c.execution(), base())) {
            Reply r = new Reply();
            Backend.Session s = b.startSession();
            b.execute(s, "/PHP/index.html", r);
            b.endSession(s);
            assertEquals(PAGE, r.body, backend + ": " + r.error);
            assertEquals(200, r.status);
            assertTrue(r.newConnection, backend);
            assertTrue(r.sendNano > 0 && r.ttfbNs > 0 && r.ttfbNs <= r.responseNs, backend);
            assertTrue(r.connectionId.startsWith("127.0.0.1:"), backend + " logs its connection: " + r.connectionId);
        }
        return heads.remove(heads.size() - 1);
    }

    private String viaEventLoops() throws Exception {
        ClientConfig c = config("netty");
        RunStats stats = new RunStats();
        RunClock clock = new RunClock(c);
        StopSignal stop = new StopSignal();
        CountDownLatch done = new CountDownLatch(1);
        try (RunLog log = new RunLog(tmp, stats::accept, stats::accept)) {
            Recorder rec = new Recorder(clock, log, stats, new TargetWatch(stop, base()), "netty");
            Backend b = Backends.create(c.execution(), base());
            SessionExecutor d = SessionExecutor.of(new SessionContext(clock, stop, b, rec, new ActiveSessions()), c.execution().threads(),
                    (who, e) -> stop.stop(who + " failed: " + e, true));
            assertTrue(d instanceof EventLoopSessions, "netty sessions run on event loops");
            UserSession s = new UserSession(c.workload(), new RequestGenerator(c.workload()), 1, 1);
            d.start("user-0", 0, System.nanoTime(), k -> k == 0 ? s : null, done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            b.close();
            assertEquals(1, s.requests());
            assertEquals(0, s.errors());
        }
        assertEquals(1, stats.newConnections());
        return heads.remove(heads.size() - 1);
    }

    @Test
    void allBackendsSendByteIdenticalRequests() throws Exception {
        String legacy = viaBlocking("legacy");
        assertEquals("GET /PHP/index.html HTTP/1.1\r\nUser-Agent: rubis-client/0.1\r\nAccept: */*\r\nHost: 127.0.0.1:" + server.getLocalPort()
                + "\r\nConnection: keep-alive\r\n\r\n", legacy);
        assertEquals(legacy, viaBlocking("pooled"), "pooled");
        assertEquals(legacy, viaBlocking("dedicated"), "dedicated");
        assertEquals(legacy, viaEventLoops(), "netty on its event loops");
        assertEquals(legacy, viaBlocking("netty"), "netty through Backend.execute");
    }
}
