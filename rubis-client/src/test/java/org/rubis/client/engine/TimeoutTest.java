package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
import org.rubis.format.ErrorClass;
import org.rubis.format.StopCause;

/** A server that accepts and never answers: every backend gives up after the request timeout, as an error. */
class TimeoutTest {

    @TempDir
    Path tmp;

    @Test
    void everyBackendTimesOutAsAnError() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept());
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String base = "http://127.0.0.1:" + silent.getLocalPort();
            for (String backend : List.of("legacy", "pooled", "dedicated", "netty")) {
                ClientConfig c = ConfigLoader.load(
                        (Path) null, Map.of("client_backend", backend, "client_request_timeout_ms", "400"));
                try (Backend b = Backends.create(c.execution(), base)) {
                    Reply r = new Reply();
                    Backend.Session s = b.startSession();
                    long t0 = System.nanoTime();
                    Backends.execute(b, s, "/PHP/index.html", r);
                    b.endSession(s);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(ErrorClass.READ_TIMEOUT, r.error(), backend);
                    assertTrue(r.failed(), backend);
                    assertTrue(ms >= 350 && ms < 5000, backend + ": gave up after " + ms + " ms");
                }
            }
            ClientConfig c = ConfigLoader.load(
                    (Path) null,
                    Map.of(
                            "client_backend",
                            "netty",
                            "client_request_timeout_ms",
                            "400",
                            "workload_maximum_number_of_transitions",
                            "1",
                            "workload_session_run_time_in_ms",
                            "10000"));
            RunStats stats = new RunStats();
            RunClock clock = new RunClock(c);
            StopSignal stop = new StopSignal();
            CountDownLatch done = new CountDownLatch(1);
            try (RunLog log = new RunLog(tmp, stats::accept, stats::accept)) {
                Backend b = Backends.create(c.execution(), base);
                SessionExecutor d = SessionExecutor.of(
                        new SessionContext(
                                clock,
                                stop,
                                b,
                                new Recorder(clock, log, stats, new TargetWatch(stop, base), "netty"),
                                new ActiveSessions()),
                        c.execution().model(),
                        (who, e) -> stop.stop(StopCause.Kind.CLIENT_FAILED, who + " failed: " + e));
                UserSession s = new UserSession(c.workload(), new RequestGenerator(c.workload()), 1, 1);
                d.start(
                        "user-0",
                        0,
                        System.nanoTime(),
                        (k, at) -> k == 0 ? new SessionExecutor.Start(s, at, null) : null,
                        done::countDown);
                assertTrue(done.await(10, TimeUnit.SECONDS));
                b.close();
                assertEquals(1, s.errors(), "netty: the timeout is an error");
            }
            assertEquals(Map.of("read-timeout", 1L), stats.errorsByClass());
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
