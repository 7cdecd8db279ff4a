package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rubis.client.backend.SocketFailures;
import org.rubis.client.config.ClientConfig;

/**
 * When no socket can be made for a new connection (the client's file descriptors ran out; here NettyBackend's channel
 * creation made to fail as the transport's does, {@link SocketFailures}), the request fails at once as {@code io}, never
 * reaching the server, and its session goes on: its next request, with sockets again, connects and succeeds. A prepare
 * that gets no socket ({@link org.rubis.client.backend.PreparingBackend#prepare}) leaves nothing behind: its request makes its
 * own connection, or fails as {@code io} when it gets no socket either. The server's accepted connections and request
 * heads are the truth of what reached it; the process's unconnected sockets ({@link UnconnectedSockets}) of what was
 * left behind. Every run ends within {@link OneUserRun}'s bound.
 */
class NoSocketTest extends PageServerTest {

    /** Far beyond twice the backend's prepare lead (1 ms): the engine prepares the request's connection first. */
    private static final long LATER = TimeUnit.MILLISECONDS.toNanos(100);

    /** Runs {@code c}'s one session on a netty backend whose channels come from {@code sockets}, its first request meant {@code inNanos} from now. */
    private Outcome run(ClientConfig c, SocketFailures sockets, long inNanos) throws Exception {
        WatchedBackend w = new WatchedBackend(sockets.netty(c.execution(), server.base()));
        try {
            return new Outcome(w, OneUserRun.run(w, c, server.base(), tmp, System.nanoTime() + inNanos));
        } finally {
            w.close();
        }
    }

    private record Outcome(WatchedBackend backend, OneUserRun.Result run) {}

    @Test
    void aRequestWithNoSocketFailsAsIoAndTheSessionsNextRequestConnects() throws Exception {
        // two requests, no think time: the second is due as soon as the first has failed
        ClientConfig c = server.config(
                "netty", Map.of("workload_maximum_number_of_transitions", "2", "workload_think_scale", "0"));
        SocketFailures sockets = SocketFailures.onCalls(1);
        int before = UnconnectedSockets.count();
        Outcome o = run(c, sockets, 0);
        assertEquals(
                List.of(),
                o.backend().prepares,
                "due requests: nothing prepared, each builds its socket in its own window");
        assertEquals(2, sockets.calls(), "one socket asked for by each request");
        assertEquals(1, sockets.failed());
        assertEquals(
                List.of("io", ""),
                o.backend().errors,
                "the first request failed for want of a socket, the next succeeded");
        assertEquals(Map.of("io", 1L), o.run().stats().totals().errorsByClass(), "the run log's error classes");
        assertEquals(2, o.run().session().requests(), "the session went on after the failure");
        assertEquals(1, o.run().session().errors());
        assertEquals(1, server.accepted.get(), "the server saw the second request's connection only");
        assertEquals(1, server.heads.size(), "and its request");
        assertEquals(List.of(before, before), o.backend().unconnectedAtReply, "no socket left behind");
    }

    @Test
    void aFailedPrepareLeavesNoSocketAndTheRequestConnects() throws Exception {
        ClientConfig c = server.config("netty");
        SocketFailures sockets = SocketFailures.onCalls(1);
        int before = UnconnectedSockets.count();
        Outcome o = run(c, sockets, LATER);
        assertEquals(1, o.backend().prepares.size(), "the request was prepared");
        assertEquals(List.of(before), o.backend().unconnectedAfterPrepare, "the prepare got no socket and left none");
        assertEquals(2, sockets.calls(), "the request asked for its own socket");
        assertEquals(1, sockets.failed(), "the prepare's failed, the request's did not");
        assertEquals(List.of(""), o.backend().errors, "the request succeeded");
        assertEquals(1, o.run().session().requests());
        assertEquals(0, o.run().session().errors());
        assertEquals(1, o.run().stats().totals().newConnections());
        assertEquals(1, server.accepted.get(), "the server accepted one connection");
        assertEquals(1, server.heads.size(), "and saw the request on it");
        assertEquals(List.of(before), o.backend().unconnectedAtReply, "no socket left behind");
    }

    @Test
    void aFailedPrepareThenNoSocketForTheRequestFailsItAsIo() throws Exception {
        ClientConfig c = server.config("netty");
        SocketFailures sockets = SocketFailures.onCalls(1, 2);
        int before = UnconnectedSockets.count();
        Outcome o = run(c, sockets, LATER);
        assertEquals(1, o.backend().prepares.size(), "the request was prepared");
        assertEquals(2, sockets.failed(), "the prepare and the request each asked for a socket and got none");
        assertEquals(List.of("io"), o.backend().errors, "the request failed for want of a socket, not hung");
        assertEquals(Map.of("io", 1L), o.run().stats().totals().errorsByClass(), "the run log's error classes");
        assertEquals(1, o.run().session().errors());
        assertEquals(0, server.accepted.get(), "nothing reached the server");
        assertEquals(List.of(), server.heads);
        assertEquals(List.of(before), o.backend().unconnectedAtReply, "no socket left behind");
    }
}
