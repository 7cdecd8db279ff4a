package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.DedicatedBackend;
import org.rubis.client.backend.PreparingBackend;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.StopCause.Kind;

/**
 * The dedicated backend prepares a new connection's socket before the request's send mark, as netty does on its event
 * loops ({@link PrepareAheadTest}): with a thread per user the user's thread wakes once, 1 ms before a request due later
 * than 2 ms whose session has no open connection, and makes the socket; with virtual threads the timer starts the
 * request's thread 1 ms early, which prepares and then waits. The request connects that socket. The server's
 * accepted connections and the process's unconnected sockets ({@link UnconnectedSockets}) are the truth.
 */
class DedicatedPrepareTest extends PageServerTest {

    private OneUserRun.Result run(WatchedBackend w, ClientConfig c, long firstIntendedNano) throws Exception {
        return run(w, c, firstIntendedNano, null);
    }

    /** One session's run on {@code w}, closed after it; {@code stop}: a signal the test may raise (null: none, and none raised). */
    private OneUserRun.Result run(WatchedBackend w, ClientConfig c, long firstIntendedNano, StopSignal stop)
            throws Exception {
        try {
            return stop == null
                    ? OneUserRun.run(w, c, server.base(), tmp, firstIntendedNano)
                    : OneUserRun.run(w, c, server.base(), tmp, firstIntendedNano, stop);
        } finally {
            w.close();
        }
    }

    /** The dedicated backend as a run with a thread per user builds it. */
    private DedicatedBackend dedicated() {
        return (DedicatedBackend) Backends.create(server.config("dedicated").execution(), server.base());
    }

    private static long later(PreparingBackend b) {
        return System.nanoTime() + Math.max(TimeUnit.MILLISECONDS.toNanos(100), 3 * b.prepareLeadNanos());
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void aLaterRequestsSocketIsPreparedOnItsThreadAndIsTheOneItConnects(String threads) throws Exception {
        ClientConfig c = server.config("dedicated", Map.of("client_threads", threads));
        int before = UnconnectedSockets.count();
        Set<String> beforeInodes = UnconnectedSockets.inodes();
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), server.base()));
        assertTrue(w.prepareLeadNanos() > 0, "dedicated prepares new connections");
        w.leadNanos = TimeUnit.MILLISECONDS.toNanos(50); // far longer than the watch's /proc reads after the prepare
        long intended = later(w);
        OneUserRun.Result r = run(w, c, intended);
        assertTrue(w.executeCalls.get(0) >= intended, "the request began at its intended instant, not at the prepare");
        assertEquals(1, r.session().requests());
        assertEquals(0, r.session().errors());
        assertEquals(1, r.stats().totals().newConnections());
        w.assertOneRequestConnectedItsPreparedSocket(before, beforeInodes);
        assertEquals(1, server.accepted.get(), "the server accepted one connection");
        assertEquals(1, server.heads.size(), "and saw the request on it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void aDueRequestIsNotPrepared(String threads) throws Exception {
        ClientConfig c = server.config("dedicated", Map.of("client_threads", threads));
        int before = UnconnectedSockets.count();
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), server.base()));
        OneUserRun.Result r = run(w, c, System.nanoTime());
        assertEquals(0, r.session().errors());
        assertEquals(
                List.of(), w.prepares, "no time to prepare in: the socket is made in the request's window, as before");
        assertEquals(List.of(before), w.unconnectedAtReply);
        assertEquals(1, server.accepted.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void theNextRequestOnAnOpenConnectionIsNotPrepared(String threads) throws Exception {
        // two requests about 14 ms apart (the TPC-W think time scaled down): the second reuses the first one's
        // connection
        ClientConfig c = server.config(
                "dedicated",
                Map.of(
                        "workload_maximum_number_of_transitions",
                        "2",
                        "workload_think_scale",
                        "0.002",
                        "client_threads",
                        threads));
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), server.base()));
        OneUserRun.Result r = run(w, c, later(w));
        assertEquals(2, r.session().requests());
        assertEquals(0, r.session().errors());
        assertEquals(
                1, w.prepares.size(), "only the first request, which opened the session's connection, was prepared");
        assertEquals(1, server.accepted.get(), "one connection for both requests");
        assertEquals(2, server.heads.size());
    }

    /** The stop comes during the lead, after the prepare: the request is not sent and the session's end closes the socket. */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void aRunStoppedWhileAPreparedRequestWaitsSendsNothingAndClosesItsSocket(String threads) throws Exception {
        ClientConfig c = server.config("dedicated", Map.of("client_threads", threads));
        int before = UnconnectedSockets.count();
        StopSignal stop = new StopSignal();
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), server.base()));
        w.afterPrepare = () -> stop.stop(Kind.INTERRUPTED, "stopped by the test during the prepare's lead");
        OneUserRun.Result r = run(w, c, later(w), stop);
        assertEquals(List.of(before + 1), w.unconnectedAfterPrepare, "prepared: one unconnected socket");
        assertEquals(List.of(), w.sendMarks, "no request sent after the stop");
        assertEquals(0, r.session().requests());
        assertEquals(before, UnconnectedSockets.count(), "the session's end closed the prepared socket");
        assertEquals(0, server.accepted.get(), "nothing reached the server");
    }

    @Test
    void aPreparedSocketIsMadeOnceAndClosedWithItsSession() throws Exception {
        int before = UnconnectedSockets.count();
        try (DedicatedBackend b = dedicated()) {
            Backend.Session s = b.startSession();
            assertTrue(
                    b.prepares(s, System.nanoTime()),
                    "a new session has no connection: its first request's socket can be prepared");
            b.prepare(s);
            b.prepare(s);
            assertEquals(before + 1, UnconnectedSockets.count(), "one prepared socket, however many prepares");
            assertFalse(b.prepares(s, System.nanoTime()), "nothing more to prepare");
            b.execute(s, "/PHP/index.html", new Reply());
            assertEquals(before, UnconnectedSockets.count(), "the request connected it");
            assertFalse(b.prepares(s, System.nanoTime()), "the session's connection is open: nothing to prepare");
            b.prepare(s);
            assertEquals(before, UnconnectedSockets.count());
            b.endSession(s);

            Backend.Session t = b.startSession();
            b.prepare(t);
            assertEquals(before + 1, UnconnectedSockets.count());
            b.endSession(t);
            assertEquals(before, UnconnectedSockets.count(), "the session's end closed its prepared socket");
        }
        assertEquals(
                1, server.accepted.get(), "a prepared socket never reaches the server unless its request connects it");
    }

    /**
     * The process's descriptors ran out at the prepare (a real EMFILE: the test holds every descriptor left): nothing is
     * prepared, nothing is left behind, and the request, once descriptors are free again, makes its own socket.
     */
    @Test
    void aPrepareThatGetsNoSocketLeavesNoneAndTheRequestMakesItsOwn() throws Exception {
        int before = UnconnectedSockets.count();
        try (DedicatedBackend b = dedicated()) {
            Backend.Session s = b.startSession();
            List<FileInputStream> held = new ArrayList<>();
            try {
                boolean exhausted = false;
                for (int i = 0; i < 200_000 && !exhausted; i++) {
                    try {
                        held.add(new FileInputStream("/dev/null"));
                    } catch (IOException e) {
                        exhausted = true; // Too many open files
                    }
                }
                Assumptions.assumeTrue(exhausted, "a descriptor limit this test can reach");
                b.prepare(s);
            } finally {
                for (FileInputStream f : held) {
                    f.close();
                }
            }
            assertTrue(
                    b.prepares(s, System.nanoTime()),
                    "nothing was prepared: the next request still opens its connection itself");
            assertEquals(before, UnconnectedSockets.count(), "the failed prepare left no socket behind");
            Reply r = new Reply();
            b.execute(s, "/PHP/index.html", r);
            assertNull(r.error(), "the request made its own socket");
            b.endSession(s);
        }
        assertEquals(1, server.accepted.get());
    }

    @Test
    void aPreparedSocketItsRequestNeverConnectsIsClosedAtTheRequestsEnd() throws Exception {
        int before = UnconnectedSockets.count();
        try (DedicatedBackend b = dedicated()) {
            Backend.Session s = b.startSession();
            b.prepare(s);
            assertEquals(before + 1, UnconnectedSockets.count(), "prepared");
            b.abortInFlight(); // the run is stopping: the request fails before it connects
            Reply r = new Reply();
            b.execute(s, "/PHP/index.html", r);
            assertEquals(ErrorClass.ABORTED, r.error());
            assertEquals(
                    before,
                    UnconnectedSockets.count(),
                    "the socket handed to the request and not taken is closed when it ends");
            assertTrue(b.prepares(s, System.nanoTime()), "nothing prepared any more, no connection open");
            b.endSession(s);
        }
        assertEquals(0, server.accepted.get(), "nothing reached the server");
    }
}
