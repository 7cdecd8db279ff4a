package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.DedicatedBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.backend.Reply;

/**
 * The dedicated backend learns how long the server keeps an idle connection from the first request that had to be resent
 * on a new one ({@code StaleConnectionRetry}); from then on it checks a connection idle that long in the prepare lead,
 * before the request's send mark, and replaces it when the server has closed it. The server's own count of the
 * connections it closed and accepted is the truth.
 */
class StaleConnectionCheckTest extends PageServerTest {

    private static final String PATH = "/PHP/index.html";
    private static final long SOON = TimeUnit.MILLISECONDS.toNanos(10);

    @Test
    void aConnectionTheServerClosedWhileIdleIsReplacedBeforeTheSendMarkOnceTheIdleLimitIsKnown() throws Exception {
        server.idleCloseMs = 150;
        DedicatedBackend b =
                (DedicatedBackend) Backends.create(server.config("dedicated").execution(), server.base());
        try {
            Backend.Session s = b.startSession();
            Reply r = new Reply();
            b.execute(s, PATH, r);
            assertTrue(r.newConnection && !r.failed(), r.errorLabel());

            // The server closes the idle connection; nothing is known yet, so nothing is checked ahead and the request
            // resends.
            Thread.sleep(300);
            assertFalse(PrepareAhead.of(b).due(s, SOON), "no idle limit known yet: no check");
            b.execute(s, PATH, r);
            assertEquals(1, r.retries(), "sent again on a new connection: " + r.errorLabel());
            assertTrue(r.newConnection && !r.failed());
            assertEquals(1, server.idleClosed.get());

            // Idle as long again: checked in the lead, found closed, replaced before the request.
            Thread.sleep(300);
            assertTrue(PrepareAhead.of(b).due(s, SOON), "a connection idle past the learnt limit is checked ahead");
            b.prepare(s);
            assertEquals(1, b.staleConnectionsFound());
            server.idleCloseMs = 0; // from here on the server keeps its connections
            b.execute(s, PATH, r);
            assertEquals(0, r.retries(), "no failed attempt: " + r.errorLabel());
            assertTrue(r.newConnection && !r.failed(), "on the connection made in the lead");
            assertEquals(2, server.idleClosed.get());

            // A live connection idle as long is checked too, and kept.
            Thread.sleep(300);
            assertTrue(PrepareAhead.of(b).due(s, SOON));
            b.prepare(s);
            assertEquals(1, b.staleConnectionsFound(), "a live connection is not replaced");
            b.execute(s, PATH, r);
            assertEquals(0, r.retries());
            assertFalse(r.newConnection, "the live connection carried the request");
            assertEquals(3, server.accepted.get(), "the first connection, the resend's, the one made in the lead");
            assertEquals(4, server.heads.size(), "and no request was sent on a closed connection that the server saw");

            // A request due at once is not checked (no lead to check in).
            assertFalse(PrepareAhead.of(b).due(s, 0));
            b.endSession(s);
        } finally {
            b.close();
        }
    }
}
