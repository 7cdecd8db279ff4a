package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.StopCause;

/** Every backend sends the same bytes for the same request: only the connection policy differs. */
class RequestBytesTest {

    @TempDir
    Path tmp;

    private PageServer server;
    private static final String PAGE = PageServer.PAGE;

    @BeforeEach
    void capture() throws Exception {
        server = new PageServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private String base() {
        return server.base();
    }

    private ClientConfig config(String backend) {
        return server.config(backend);
    }

    private String viaBlocking(String backend) {
        ClientConfig c = config(backend);
        try (Backend b = Backends.create(c.execution(), base())) {
            Reply r = new Reply();
            Backend.Session s = b.startSession();
            Backends.execute(b, s, "/PHP/index.html", r);
            b.endSession(s);
            assertEquals(PAGE, r.body, backend + ": " + r.errorLabel());
            assertEquals(200, r.status);
            assertTrue(r.newConnection, backend);
            assertTrue(r.sendNano() > 0 && r.ttfbNs() > 0 && r.ttfbNs() <= r.responseNs(), backend);
            assertTrue(r.localAddress.startsWith("127.0.0.1:"), backend + " logs its connection: " + r.localAddress);
        }
        return server.heads.remove(server.heads.size() - 1);
    }

    private String viaEventLoops() throws Exception {
        ClientConfig c = config("netty");
        RunStats stats = new RunStats();
        RunClock clock = new RunClock(c);
        StopSignal stop = new StopSignal();
        CountDownLatch done = new CountDownLatch(1);
        try (RunLog log = new RunLog(tmp, stats::accept, stats::accept)) {
            Recorder rec = new Recorder(clock, log, stats, new TargetWatch(stop, base()), "netty", ShardPlan.SINGLE);
            Backend b = Backends.create(c.execution(), base());
            SessionExecutor d = SessionExecutor.of(
                    new SessionContext(clock, stop, b, rec, new ActiveSessions(), RunSeams.NONE),
                    c.execution().model(),
                    (who, e) -> stop.stop(StopCause.Kind.CLIENT_FAILED, who + " failed: " + e));
            assertTrue(d instanceof EventLoopSessions, "netty sessions run on event loops");
            UserSession s = new UserSession(c.workload(), new RequestGenerator(c.workload()), 1, 1);
            d.start(
                    "user-0",
                    0,
                    System.nanoTime(),
                    (k, at) -> k == 0 ? new SessionExecutor.Start(s, at, null) : null,
                    done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            b.close();
            assertEquals(1, s.requests());
            assertEquals(0, s.errors());
        }
        assertEquals(1, stats.totals().newConnections());
        return server.heads.remove(server.heads.size() - 1);
    }

    @Test
    void allBackendsSendByteIdenticalRequests() throws Exception {
        String legacy = viaBlocking("legacy");
        assertEquals(
                "GET /PHP/index.html HTTP/1.1\r\nUser-Agent: rubis-client/0.1\r\nAccept: */*\r\nHost: 127.0.0.1:"
                        + server.port() + "\r\nConnection: keep-alive\r\n\r\n",
                legacy);
        assertEquals(legacy, viaBlocking("pooled"), "pooled");
        assertEquals(legacy, viaBlocking("dedicated"), "dedicated");
        assertEquals(legacy, viaEventLoops(), "netty on its event loops");
        assertEquals(legacy, viaBlocking("netty"), "netty through Backend.execute");
    }
}
