package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;

/**
 * A request due later than twice the backend's lead gets its new connection's socket prepared before its send mark
 * ({@link Backend#prepare}), and that socket is the one it connects: the server accepts one connection, and no
 * unconnected socket is left over (counted as the process's sockets absent from the kernel's TCP tables, the only
 * state a prepared socket can be in). A due request is not prepared, a session with an open connection prepares
 * nothing, and a prepared socket is closed with its session.
 */
class PrepareAheadTest {

    @TempDir Path tmp;
    private PageServer server;

    @BeforeEach
    void start() throws Exception {
        server = new PageServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private String base() {
        return server.base();
    }

    private ClientConfig config() {
        return server.config("netty");
    }

    /** The process's sockets that are in no kernel socket table (TCP, UDP, Unix): TCP sockets created, never bound nor connected. */
    static int unconnectedSockets() throws IOException {
        Set<String> inTables = new HashSet<>();
        inodes("/proc/net/tcp", 9, inTables);
        inodes("/proc/net/tcp6", 9, inTables);
        inodes("/proc/net/udp", 9, inTables);
        inodes("/proc/net/udp6", 9, inTables);
        inodes("/proc/net/unix", 6, inTables);
        int n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                String link;
                try {
                    link = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed meanwhile (the listing's own descriptor)
                }
                if (link.startsWith("socket:[")) {
                    String inode = link.substring(8, link.length() - 1);
                    if (!inTables.contains(inode)) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /** Adds the inode column ({@code column}, from 0) of each socket in a /proc/net table. */
    private static void inodes(String table, int column, Set<String> into) throws IOException {
        Path p = Path.of(table);
        if (!Files.exists(p)) {
            return;
        }
        List<String> lines = Files.readAllLines(p);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length > column) {
                into.add(f[column]);
            }
        }
    }

    /** Delegates to netty and notes, on the session's loop, each prepare and the unconnected sockets around it. */
    private static final class Watched implements Backend {
        final Backend b;
        final List<Long> prepares = new CopyOnWriteArrayList<>();
        final List<Integer> unconnectedAfterPrepare = new CopyOnWriteArrayList<>();
        final List<Integer> unconnectedAtReply = new CopyOnWriteArrayList<>();
        final List<Long> sendMarks = new CopyOnWriteArrayList<>();

        Watched(Backend b) {
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
                unconnectedAtReply.add(count());
                sendMarks.add(out.sendNano);
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
            unconnectedAfterPrepare.add(count());
        }

        @Override
        public void endSession(Session session) {
            b.endSession(session);
        }

        @Override
        public void close() {
            b.close();
        }

        private static int count() {
            try {
                return unconnectedSockets();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Runs one session of one request, meant at {@code firstIntendedNano}, on the event loops. */
    private void runOneRequest(Watched w, ClientConfig c, long firstIntendedNano) throws Exception {
        RunStats stats = new RunStats();
        RunClock clock = new RunClock(c);
        StopSignal stop = new StopSignal();
        CountDownLatch done = new CountDownLatch(1);
        try (RunLog log = new RunLog(tmp, stats::accept, stats::accept)) {
            Recorder rec = new Recorder(clock, log, stats, new TargetWatch(stop, base()), "netty");
            SessionExecutor d = SessionExecutor.of(new SessionContext(clock, stop, w, rec, new ActiveSessions()), c.execution().threads(),
                    (who, e) -> stop.stop(who + " failed: " + e, true));
            assertTrue(d instanceof EventLoopSessions, "netty sessions run on event loops");
            UserSession s = new UserSession(c.workload(), new RequestGenerator(c.workload()), 1, 1);
            d.start("user-0", 0, firstIntendedNano, k -> k == 0 ? s : null, done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(1, s.requests());
            assertEquals(0, s.errors());
        }
        assertEquals(1, stats.newConnections());
    }

    @Test
    void aLaterRequestsSocketIsPreparedAndIsTheOneItConnects() throws Exception {
        ClientConfig c = config();
        int before = unconnectedSockets();
        Watched w = new Watched(Backends.create(c.execution(), base()));
        long lead = w.prepareLeadNanos();
        assertTrue(lead > 0, "netty prepares new connections");
        long intended = System.nanoTime() + Math.max(TimeUnit.MILLISECONDS.toNanos(100), 3 * lead);
        try {
            runOneRequest(w, c, intended);
        } finally {
            w.close();
        }
        assertEquals(1, w.prepares.size(), "one prepare, before the request");
        assertTrue(w.prepares.get(0) < w.sendMarks.get(0), "prepared before the request's send mark");
        assertEquals(List.of(before + 1), w.unconnectedAfterPrepare, "the prepare made one socket, unconnected");
        assertEquals(List.of(before), w.unconnectedAtReply, "the request connected the prepared socket: none left over");
        assertEquals(1, server.accepted.get(), "the server accepted one connection");
    }

    @Test
    void aDueRequestIsNotPrepared() throws Exception {
        ClientConfig c = config();
        int before = unconnectedSockets();
        Watched w = new Watched(Backends.create(c.execution(), base()));
        try {
            runOneRequest(w, c, System.nanoTime());
        } finally {
            w.close();
        }
        assertEquals(List.of(), w.prepares, "no time to prepare in: the connection is built in the request's window, as before");
        assertEquals(List.of(before), w.unconnectedAtReply);
        assertEquals(1, server.accepted.get());
    }

    @Test
    void anOpenConnectionPreparesNothingAndAPreparedSocketClosesWithItsSession() throws Exception {
        ClientConfig c = config();
        int before = unconnectedSockets();
        try (Backend b = Backends.create(c.execution(), base())) {
            Backend.Session s = b.startSession();
            ScheduledExecutorService loop = b.loop(s);
            b.execute(s, "/PHP/index.html", new Reply());
            loop.submit(() -> b.prepare(s)).get(5, TimeUnit.SECONDS);
            assertEquals(before, unconnectedSockets(), "the session's connection is open: nothing to prepare");
            b.endSession(s);

            Backend.Session t = b.startSession();
            b.loop(t).submit(() -> b.prepare(t)).get(5, TimeUnit.SECONDS);
            b.loop(t).submit(() -> b.prepare(t)).get(5, TimeUnit.SECONDS);
            assertEquals(before + 1, unconnectedSockets(), "one prepared socket, however many prepares");
            b.endSession(t);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (unconnectedSockets() != before && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(before, unconnectedSockets(), "the session's end closed its prepared socket");
        }
        assertEquals(1, server.accepted.get(), "a prepared socket never reaches the server");
    }
}
