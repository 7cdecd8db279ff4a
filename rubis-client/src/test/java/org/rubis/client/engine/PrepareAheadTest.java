package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.NettyBackend;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;

/**
 * A request due later than twice the backend's lead gets its new connection's socket prepared before its send mark
 * ({@link org.rubis.client.backend.PreparingBackend#prepare}), and that socket is the one it connects: the server accepts one connection, and no
 * unconnected socket is left over (counted as the process's sockets absent from the kernel's TCP tables, the only
 * state a prepared socket can be in). A due request is not prepared, a session with an open connection prepares
 * nothing, and a prepared socket is closed with its session.
 */
class PrepareAheadTest extends PageServerTest {

    private String base() {
        return server.base();
    }

    private ClientConfig config() {
        return server.config("netty");
    }

    /** Runs one session of one request, meant at {@code firstIntendedNano}, on the event loops: it succeeds on a new connection. */
    private void runOneRequest(WatchedBackend w, ClientConfig c, long firstIntendedNano) throws Exception {
        OneUserRun.Result r = OneUserRun.run(w, c, base(), tmp, firstIntendedNano);
        assertEquals(1, r.session().requests());
        assertEquals(0, r.session().errors());
        assertEquals(1, r.stats().totals().newConnections());
    }

    @Test
    void aLaterRequestsSocketIsPreparedAndIsTheOneItConnects() throws Exception {
        ClientConfig c = config();
        int before = UnconnectedSockets.count();
        Set<String> beforeInodes = UnconnectedSockets.inodes();
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), base()));
        long lead = w.prepareLeadNanos();
        assertTrue(lead > 0, "netty prepares new connections");
        long intended = System.nanoTime() + Math.max(TimeUnit.MILLISECONDS.toNanos(100), 3 * lead);
        try {
            runOneRequest(w, c, intended);
        } finally {
            w.close();
        }
        w.assertOneRequestConnectedItsPreparedSocket(before, beforeInodes);
        assertEquals(1, server.accepted.get(), "the server accepted one connection");
    }

    @Test
    void aDueRequestIsNotPrepared() throws Exception {
        ClientConfig c = config();
        int before = UnconnectedSockets.count();
        WatchedBackend w = new WatchedBackend(Backends.create(c.execution(), base()));
        try {
            runOneRequest(w, c, System.nanoTime());
        } finally {
            w.close();
        }
        assertEquals(
                List.of(),
                w.prepares,
                "no time to prepare in: the connection is built in the request's window, as before");
        assertEquals(List.of(before), w.unconnectedAtReply);
        assertEquals(1, server.accepted.get());
    }

    @Test
    void anOpenConnectionPreparesNothingAndAPreparedSocketClosesWithItsSession() throws Exception {
        ClientConfig c = config();
        int before = UnconnectedSockets.count();
        try (NettyBackend b = (NettyBackend) Backends.create(c.execution(), base())) {
            Backend.Session s = b.startSession();
            ScheduledExecutorService loop = b.loop(s);
            b.sendAndWait(s, "/PHP/index.html", new Reply());
            loop.submit(() -> b.prepare(s)).get(5, TimeUnit.SECONDS);
            assertEquals(before, UnconnectedSockets.count(), "the session's connection is open: nothing to prepare");
            b.endSession(s);

            Backend.Session t = b.startSession();
            b.loop(t).submit(() -> b.prepare(t)).get(5, TimeUnit.SECONDS);
            b.loop(t).submit(() -> b.prepare(t)).get(5, TimeUnit.SECONDS);
            assertEquals(before + 1, UnconnectedSockets.count(), "one prepared socket, however many prepares");
            b.endSession(t);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (UnconnectedSockets.count() != before && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(before, UnconnectedSockets.count(), "the session's end closed its prepared socket");
        }
        assertEquals(1, server.accepted.get(), "a prepared socket never reaches the server");
    }
}
