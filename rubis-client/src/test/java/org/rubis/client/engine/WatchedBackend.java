package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.backend.PreparingBackend;
import org.rubis.client.backend.Reply;

/**
 * Delegates to a backend and notes, where the engine calls it (the session's loop, or the user's thread), each prepare
 * and the unconnected sockets ({@link UnconnectedSockets}) after it, and each reply's send mark, error and unconnected
 * sockets: what the engine's tests of {@link PreparingBackend#prepare} check. It speaks every protocol and passes each
 * call to the backend's own (the run's execution model picks the one the backend has).
 */
final class WatchedBackend implements BlockingBackend, EventLoopBackend, PreparingBackend {
    final Backend b;
    final List<Long> prepares = new CopyOnWriteArrayList<>();
    final List<Integer> unconnectedAfterPrepare = new CopyOnWriteArrayList<>();
    final List<Integer> unconnectedAtReply = new CopyOnWriteArrayList<>();
    /** The unconnected sockets' inodes after each prepare, and the TCP table's inodes at each reply. */
    final List<Set<String>> unconnectedInodesAfterPrepare = new CopyOnWriteArrayList<>();

    final List<Set<String>> tcpInodesAtReply = new CopyOnWriteArrayList<>();
    final List<Long> sendMarks = new CopyOnWriteArrayList<>();
    /** Each reply's error class, empty for a success, in order. */
    final List<String> errors = new CopyOnWriteArrayList<>();

    /** Runs after each prepare (a test stops the run there). */
    volatile Runnable afterPrepare = () -> {};

    WatchedBackend(Backend b) {
        this.b = b;
    }

    @Override
    public String name() {
        return b.name();
    }

    @Override
    public Session startSession() {
        return b.startSession();
    }

    /** When each blocking request began (the engine called execute), before the backend's own work. */
    final List<Long> executeCalls = new CopyOnWriteArrayList<>();

    @Override
    public void execute(Session session, String path, Reply out) {
        executeCalls.add(System.nanoTime());
        ((BlockingBackend) b).execute(session, path, out);
        replied(out);
    }

    private void replied(Reply out) {
        unconnectedAtReply.add(UnconnectedSockets.countNow());
        tcpInodesAtReply.add(UnconnectedSockets.tcpInodesNow());
        sendMarks.add(out.sendNano());
        errors.add(out.errorLabel());
    }

    @Override
    public void send(Session session, String path, Reply out, Runnable onReply) {
        ((EventLoopBackend) b).send(session, path, out, () -> {
            replied(out);
            onReply.run();
        });
    }

    @Override
    public void sendAndWait(Session session, String path, Reply out) {
        ((EventLoopBackend) b).sendAndWait(session, path, out);
        replied(out);
    }

    @Override
    public ScheduledExecutorService loop(Session session) {
        return ((EventLoopBackend) b).loop(session);
    }

    /** When positive, the lead the engine is given instead of the backend's (longer than this class's own checks take). */
    volatile long leadNanos;

    @Override
    public long prepareLeadNanos() {
        return leadNanos > 0 ? leadNanos : b instanceof PreparingBackend p ? p.prepareLeadNanos() : 0;
    }

    /**
     * One request, prepared once before its send mark: the prepare made one unconnected socket (not among the
     * {@code before} ones, {@code beforeCount} of them), and at the reply that very socket is in the kernel's TCP table,
     * none left over: the request connected the socket its prepare made.
     */
    void assertOneRequestConnectedItsPreparedSocket(int beforeCount, Set<String> before) {
        assertEquals(1, prepares.size(), "one prepare, before the request");
        assertTrue(prepares.get(0) < sendMarks.get(0), "prepared before the request's send mark");
        assertEquals(List.of(beforeCount + 1), unconnectedAfterPrepare, "the prepare made one socket, unconnected");
        assertEquals(
                List.of(beforeCount), unconnectedAtReply, "the request connected the prepared socket: none left over");
        Set<String> prepared = new HashSet<>(unconnectedInodesAfterPrepare.get(0));
        prepared.removeAll(before);
        assertEquals(1, prepared.size(), "one new unconnected socket after the prepare");
        assertTrue(
                tcpInodesAtReply.get(0).containsAll(prepared),
                "that very socket is the request's connection at its reply");
    }

    @Override
    public boolean prepares(Session session, long requestNano) {
        return b instanceof PreparingBackend p && p.prepares(session, requestNano);
    }

    @Override
    public void prepare(Session session) {
        prepares.add(System.nanoTime());
        ((PreparingBackend) b).prepare(session);
        Set<String> unconnected = UnconnectedSockets.inodesNow();
        unconnectedAfterPrepare.add(unconnected.size());
        unconnectedInodesAfterPrepare.add(unconnected);
        afterPrepare.run();
    }

    @Override
    public void endSession(Session session) {
        b.endSession(session);
    }

    @Override
    public void abortInFlight() {
        b.abortInFlight();
    }

    @Override
    public void close() {
        b.close();
    }
}
