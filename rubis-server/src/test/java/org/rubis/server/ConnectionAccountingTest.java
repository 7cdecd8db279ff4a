package org.rubis.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.http.PreforkServer;

/** Keep-alive accounting, the idle timeout and the prefork pool limit, checked in the ground truth. */
class ConnectionAccountingTest {

    @TempDir
    Path out;

    private static final DataPolicy SMALL = DataPolicy.load(null, 0.005, 1);

    @Test
    void manyRequestsOnOneConnectionAreOneConnectionAndTheIdleTimeoutClosesIt() throws Exception {
        for (RubisServer.Model model : RubisServer.Model.values()) {
            Path dir = out.resolve(model.name());
            try (RubisServer s =
                    new RubisServer(model, RubisServerTest.settings(400, 15, 15), SMALL, dir, null, Map.of())) {
                s.start();
                try (RawHttp h = new RawHttp(s.port())) {
                    for (int i = 0; i < 25; i++) {
                        assertEquals(200, h.get("/PHP/index.html").status());
                    }
                    long t0 = System.nanoTime();
                    assertTrue(h.closedByServer(), model + ": the idle connection must be closed");
                    long waited = (System.nanoTime() - t0) / 1_000_000;
                    assertTrue(
                            waited >= 300 && waited < 5000, model + ": closed after " + waited + " ms, timeout 400 ms");
                }
                assertEquals(25, s.truth().requests());
                assertEquals(1, s.truth().connectionsAccepted());
            }
            String conns = Files.readString(dir.resolve("connections.csv"));
            List<String> lines = conns.lines().toList();
            assertEquals(2, lines.size(), conns);
            assertTrue(lines.get(1).endsWith(",25,idle-timeout,"), conns);
            assertEquals(26, Files.readAllLines(dir.resolve("requests.csv")).size());
            String stats = Files.readString(dir.resolve("stats.json"));
            assertTrue(stats.contains("\"connections_accepted\": 1") && stats.contains("\"requests\": 25"), stats);
        }
    }

    /**
     * The reference probe's requests (rubis_probe=1) are in requests.csv like any other, but stats.json counts them
     * and their connection apart: requests, connections and interactions are the users' own.
     */
    @Test
    void theReferenceProbesRequestsAndConnectionAreCountedApart() throws Exception {
        for (RubisServer.Model model : RubisServer.Model.values()) {
            Path dir = out.resolve("probe-" + model.name());
            try (RubisServer s =
                    new RubisServer(model, RubisServerTest.settings(5000, 15, 15), SMALL, dir, null, Map.of())) {
                s.start();
                try (RawHttp user = new RawHttp(s.port());
                        RawHttp probe = new RawHttp(s.port())) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(200, user.get("/PHP/index.html").status());
                    }
                    for (int i = 0; i < 7; i++) {
                        assertEquals(
                                200, probe.get("/PHP/index.html?rubis_probe=1").status());
                    }
                }
            }
            // Read once the server is closed: the event server records a request just after its reply is written.
            List<String> served = Files.readAllLines(dir.resolve("requests.csv"));
            assertEquals(1 + 3 + 7, served.size(), "every request in the server's log: " + served);
            assertEquals(
                    7, served.stream().filter(l -> l.contains("rubis_probe=1")).count(), served.toString());
            String stats = Files.readString(dir.resolve("stats.json"));
            for (String kv : List.of(
                    "\"requests\": 3,",
                    "\"probe_requests\": 7,",
                    "\"probe_connections\": 1,",
                    "\"connections_accepted\": 1,",
                    "\"histogram\": {\"3\": 1}",
                    "\"Home\": 3")) {
                assertTrue(stats.contains(kv), model + ": " + kv + " in " + stats);
            }
        }
    }

    @Test
    void preforkNeverServesMoreConnectionsThanWorkersAndTheExcessWaits() throws Exception {
        int workers = 3;
        try (RubisServer s = new RubisServer(
                RubisServer.Model.PREFORK,
                RubisServerTest.settings(300, workers, workers),
                SMALL,
                out,
                null,
                Map.of())) {
            s.start();
            int clients = 8;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    go.await();
                    try (RawHttp h = new RawHttp(s.port())) {
                        int ok = 0;
                        for (int i = 0; i < 5; i++) {
                            ok += h.get("/PHP/ViewItem.php?itemId=" + (i + 1)).status() == 200 ? 1 : 0;
                            Thread.sleep(20);
                        }
                        return ok;
                    }
                }));
            }
            go.countDown();
            for (Future<Integer> f : done) {
                assertEquals(5, f.get(30, TimeUnit.SECONDS), "every waiting connection is served eventually");
            }
            pool.shutdown();
            assertEquals(clients, s.truth().connectionsAccepted());
            assertEquals(clients * 5, s.truth().requests());
            assertTrue(
                    s.truth().maxConcurrentConnections() <= workers,
                    "at most " + workers + " connections served at once, saw "
                            + s.truth().maxConcurrentConnections());
            assertEquals(workers, ((PreforkServer) s.http()).workers(), "max workers = initial workers: no growth");
        }
    }

    @Test
    void statsEndpointDoesNotCountAsAClientConnection() throws Exception {
        try (RubisServer s = new RubisServer(
                RubisServer.Model.EVENT, RubisServerTest.settings(5000, 15, 15), SMALL, null, null, Map.of())) {
            s.start();
            try (RawHttp h = new RawHttp(s.port())) {
                h.get("/PHP/index.html");
            }
            // The event model counts a request once its reply is written, which may land just after the client has
            // read it: ask again until it has (each ask on a new connection, none of which may count).
            String json = "";
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!json.contains("\"requests\": 1") && System.nanoTime() < deadline) {
                try (RawHttp h = new RawHttp(s.port())) {
                    json = h.get("/rubis-server/stats").body();
                }
            }
            assertTrue(json.contains("\"requests\": 1") && json.contains("\"connections_accepted\": 1"), json);
        }
    }
}
