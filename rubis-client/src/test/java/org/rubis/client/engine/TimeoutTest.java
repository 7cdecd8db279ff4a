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
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.Keys;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.config.TestConfig;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.StopCause;

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
            for (BackendKind backend :
                    List.of(BackendKind.LEGACY, BackendKind.POOLED, BackendKind.DEDICATED, BackendKind.NETTY)) {
                ClientConfig c = TestConfig.packaged()
                        .set(Keys.BACKEND, backend)
                        .set(Keys.REQUEST_TIMEOUT_MS, 400)
                        .load();
                try (Backend b = Backends.create(c.execution(), base)) {
                    Reply r = new Reply();
                    Backend.Session s = b.startSession();
                    long t0 = System.nanoTime();
                    Backends.execute(b, s, "/PHP/index.html", r);
                    b.endSession(s);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(ErrorClass.READ_TIMEOUT, r.error(), backend.label());
                    assertTrue(r.failed(), backend.label());
                    assertTrue(ms >= 350 && ms < 5000, backend + ": gave up after " + ms + " ms");
                }
            }
            ClientConfig c = TestConfig.packaged()
                    .set(Keys.BACKEND, BackendKind.NETTY)
                    .set(Keys.REQUEST_TIMEOUT_MS, 400)
                    .set(Keys.MAX_TRANSITIONS, 1)
                    .set(Keys.RUN_MS, 10_000L)
                    .load();
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
                                new Recorder(clock, log, stats, new TargetWatch(stop, base), "netty", ShardPlan.SINGLE),
                                new ActiveSessions(),
                                RunSeams.NONE),
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
            assertEquals(Map.of("read-timeout", 1L), stats.totals().errorsByClass());
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
