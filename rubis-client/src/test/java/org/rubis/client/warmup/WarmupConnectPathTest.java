package org.rubis.client.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.backend.PreparingBackend;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.JitWarmupPolicy;

/**
 * The warm-up compiles the connect paths a run takes: in a TPC-W run about half the requests open a connection, most
 * of them on a socket prepared in the think time's last millisecond ({@link PreparingBackend#prepare}), some on one made in the
 * request's window (a request due at once, a retry). The warm-up has no think time; it must still make both kinds, as
 * often as a run makes new connections.
 */
class WarmupConnectPathTest {

    /**
     * Delegates every call of the backend's protocol (the warm-up drives the one of the run's execution model); counts
     * requests, the new connections among them, and whether a prepare came before.
     */
    private static final class Watching implements BlockingBackend, EventLoopBackend, PreparingBackend {
        final Backend b;
        final Set<Session> preparedSinceLastSend = ConcurrentHashMap.newKeySet();
        final AtomicLong requests = new AtomicLong();
        final AtomicLong prepares = new AtomicLong();
        final AtomicLong newAfterPrepare = new AtomicLong();
        final AtomicLong newWithoutPrepare = new AtomicLong();

        Watching(Backend b) {
            this.b = b;
        }

        private void replied(boolean prepared, Reply out) {
            requests.incrementAndGet();
            if (out.newConnection && !out.failed()) {
                (prepared ? newAfterPrepare : newWithoutPrepare).incrementAndGet();
            }
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
        public ScheduledExecutorService loop(Session s) {
            return ((EventLoopBackend) b).loop(s);
        }

        @Override
        public long prepareLeadNanos() {
            return ((PreparingBackend) b).prepareLeadNanos();
        }

        @Override
        public boolean prepares(Session s, long at) {
            return ((PreparingBackend) b).prepares(s, at);
        }

        @Override
        public void sendAndWait(Session s, String path, Reply out) {
            ((EventLoopBackend) b).sendAndWait(s, path, out);
        }

        @Override
        public void abortInFlight() {
            b.abortInFlight();
        }

        @Override
        public void endSession(Session s) {
            b.endSession(s);
        }

        @Override
        public void close() {
            b.close();
        }

        @Override
        public void prepare(Session s) {
            prepares.incrementAndGet();
            preparedSinceLastSend.add(s);
            ((PreparingBackend) b).prepare(s);
        }

        @Override
        public void execute(Session s, String path, Reply out) {
            boolean prepared = preparedSinceLastSend.remove(s);
            ((BlockingBackend) b).execute(s, path, out);
            replied(prepared, out);
        }

        @Override
        public void send(Session s, String path, Reply out, Runnable onReply) {
            boolean prepared = preparedSinceLastSend.remove(s);
            ((EventLoopBackend) b).send(s, path, out, () -> {
                replied(prepared, out);
                onReply.run();
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "dedicated"})
    void bothConnectPathsAreWarmedAsOftenAsARunOpensConnections(String backend) {
        ClientConfig config = ConfigLoader.load((Path) null, Map.of("client_backend", backend));
        Watching[] seen = new Watching[1];
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        WarmupReport report = new JitWarmup(
                        config.execution(),
                        config.workload(),
                        JitWarmupPolicy.parse("2000"),
                        new PrintStream(text, true))
                .wrappingBackend(b -> seen[0] = new Watching(b))
                .run(List.of(), Long.MAX_VALUE);
        Watching w = seen[0];
        String what = backend + ": " + text + " requests " + w.requests + ", prepares " + w.prepares
                + ", new connections after a prepare " + w.newAfterPrepare + ", without " + w.newWithoutPrepare;
        assertTrue(text.toString().contains("JIT warm-up: "), what);
        assertTrue(w.requests.get() >= 2000, what);
        assertEquals(0, report.errors(), what);
        long fresh = w.newAfterPrepare.get() + w.newWithoutPrepare.get();
        assertTrue(
                fresh >= 0.4 * w.requests.get(),
                "about half the requests open a connection, as in a TPC-W run: " + what);
        assertTrue(w.newAfterPrepare.get() >= 0.25 * fresh, "the prepared connect path is warmed: " + what);
        assertTrue(w.newWithoutPrepare.get() >= 0.25 * fresh, "and the unprepared one: " + what);
    }
}
