package org.rubis.client.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Reply;

/**
 * Delegates to a backend and notes, on the session's loop, each prepare and the unconnected sockets
 * ({@link UnconnectedSockets}) around it, and each reply's send mark, error and unconnected sockets: what the engine's tests of {@link Backend#prepare} check,
 * seen from where the engine calls it.
 */
final class WatchedBackend implements Backend {
    final Backend b;
    final List<Long> prepares = new CopyOnWriteArrayList<>();
    final List<Integer> unconnectedAfterPrepare = new CopyOnWriteArrayList<>();
    final List<Integer> unconnectedAtReply = new CopyOnWriteArrayList<>();
    final List<Long> sendMarks = new CopyOnWriteArrayList<>();
    /** Each reply's error class, empty for a success, in order. */
    final List<String> errors = new CopyOnWriteArrayList<>();

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

    @Override
    public void execute(Session session, String path, Reply out) {
        b.execute(session, path, out);
    }

    @Override
    public void send(Session session, String path, Reply out, Runnable onReply) {
        b.send(session, path, out, () -> {
            unconnectedAtReply.add(UnconnectedSockets.countNow());
            sendMarks.add(out.sendNano);
            errors.add(out.error);
            onReply.run();
        });
    }

    @Override
    public boolean eventLoops() {
        return b.eventLoops();
    }

    @Override
    public ScheduledExecutorService loop(Session session) {
        return b.loop(session);
    }

    @Override
    public long prepareLeadNanos() {
        return b.prepareLeadNanos();
    }

    @Override
    public void prepare(Session session) {
        prepares.add(System.nanoTime());
        b.prepare(session);
        unconnectedAfterPrepare.add(UnconnectedSockets.countNow());
    }

    @Override
    public void endSession(Session session) {
        b.endSession(session);
    }

    @Override
    public void close() {
        b.close();
    }
}
