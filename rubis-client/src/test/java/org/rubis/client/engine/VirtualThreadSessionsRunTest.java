package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.rubis.client.config.ConfigLoader;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * The virtual-thread model ({@link VirtualThreadSessions}: a virtual thread per request, think
 * times on a timer) against the server's own accounting: although no thread holds a session
 * through its think times, each session keeps one connection for all its requests, carrying no
 * other session's; every request the server served is logged once, in a session that has its one
 * sessions.csv line; and a stop in the middle (Ctrl-C) still leaves that accounting whole. Each case has its own
 * server and mostly waits for its run: the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class VirtualThreadSessionsRunTest {

    private static final int USERS = 12;

    @TempDir
    Path tmp;

    private record Run(
            JsonNode summary,
            List<Map<String, String>> requests,
            List<Map<String, String>> sessions,
            List<Map<String, String>> serverRequests,
            List<Map<String, String>> serverConnections) {}

    private Run run(String name, int stopAfterRequests) throws Exception {
        Path dir = tmp.resolve(name);
        Path truth = tmp.resolve(name + "-server");
        JsonNode s;
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", truth)) {
            Map<String, String> p = Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    "dedicated",
                    "client_threads",
                    "virtual",
                    "workload_number_of_clients_per_node",
                    String.valueOf(USERS),
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    "4000",
                    // think times of 0 to 0.7 s (mean 70 ms): many requests per session, all under the server's 5 s
                    // keep-alive
                    "workload_think_scale",
                    "0.01",
                    "client_progress",
                    "no");
            RunEngine engine = new RunEngine(
                    ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()));
            if (stopAfterRequests > 0) {
                StopAfterRequests stop = StopAfterRequests.on(engine, stopAfterRequests);
                try {
                    s = engine.run().json();
                } finally {
                    stop.cancel();
                }
            } else {
                s = engine.run().json();
            }
        }
        return new Run(
                s,
                csv(dir.resolve("requests.csv")),
                csv(dir.resolve("sessions.csv")),
                csv(truth.resolve("requests.csv")),
                csv(truth.resolve("connections.csv")));
    }

    private static List<Map<String, String>> csv(Path f) throws Exception {
        List<String> lines = Files.readAllLines(f);
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] v = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length && i < v.length; i++) {
                row.put(header[i], v[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * One connection per session, every request logged once in a logged session, as the server saw them.
     * A stop aborts the requests in flight (logged {@code aborted}): the server may or may not have served those.
     */
    private static void sessionsKeepTheirConnectionAndEveryRequestIsLogged(Run r) {
        assertEquals("virtual", r.summary.get("threads").asText(), r.summary.toString());
        long aborted = r.summary.path("errors_by_class").path("aborted").asLong();
        assertEquals(
                aborted,
                r.summary.get("errors").asLong(),
                "no errors but requests aborted by a stop: " + r.summary.get("errors_by_class"));

        // sessions.csv: one line per session that began, as many as the summary counts
        Set<String> sessionIds = new HashSet<>();
        Map<String, Long> requestsBySession = new HashMap<>();
        for (Map<String, String> s : r.sessions) {
            assertTrue(sessionIds.add(s.get("session_id")), "one line per session: " + s.get("session_id"));
            requestsBySession.put(s.get("session_id"), Long.parseLong(s.get("requests")));
        }
        assertEquals(
                r.summary.get("sessions_started").asLong(), r.sessions.size(), "every session that began has its line");

        // every request the client logged belongs to a logged session, and each session's count is its requests.csv
        // lines
        Map<String, Long> logged = new HashMap<>();
        Map<String, Long> abortedBySession = new HashMap<>();
        Map<String, Set<String>> sessionsByConnection = new HashMap<>();
        Map<String, Set<String>> connectionsBySession = new HashMap<>();
        for (Map<String, String> q : r.requests) {
            String session = q.get("session_id");
            assertTrue(sessionIds.contains(session), "request of a session with no sessions.csv line: " + q);
            logged.merge(session, 1L, Long::sum);
            if ("aborted".equals(q.get("error"))) {
                abortedBySession.merge(session, 1L, Long::sum);
                continue; // its connection may have no name (cut before the reply)
            }
            sessionsByConnection
                    .computeIfAbsent(q.get("local_address"), k -> new HashSet<>())
                    .add(session);
            connectionsBySession.computeIfAbsent(session, k -> new HashSet<>()).add(q.get("local_address"));
        }
        requestsBySession.forEach(
                (id, n) -> assertEquals(n, logged.getOrDefault(id, 0L), "session " + id + ": its requests.csv lines"));

        // the server's own accounting: it served exactly the logged requests, on one connection per session that sent
        // any
        assertTrue(
                r.serverRequests.size() <= r.requests.size() && r.serverRequests.size() >= r.requests.size() - aborted,
                "the server served every request the client logged, and no other: " + r.serverRequests.size() + " of "
                        + r.requests.size());
        long sent = requestsBySession.values().stream().filter(n -> n > 0).count();
        long answered = connectionsBySession.size(); // sessions with a request not aborted
        assertTrue(
                r.serverConnections.size() >= answered && r.serverConnections.size() <= sent,
                "server: one connection per session: " + r.serverConnections.size() + " connections, " + sent
                        + " sessions");
        if (aborted == 0) {
            assertEquals(sent, r.serverConnections.size(), "server: one connection per session");
        }
        long sessionsWithThinkTimes = 0;
        for (Map<String, String> c : r.serverConnections) {
            String id = c.get("connection_id");
            Set<String> owners = sessionsByConnection.get(id);
            if (owners == null && aborted > 0) {
                continue; // the connection of a session whose only request the stop aborted
            }
            assertTrue(owners != null && owners.size() == 1, "connection " + id + " carried sessions " + owners);
            String session = owners.iterator().next();
            assertEquals(Set.of(id), connectionsBySession.get(session), "session " + session + " used one connection");
            long served = Long.parseLong(c.get("requests"));
            long n = requestsBySession.get(session);
            assertTrue(
                    served <= n && served >= n - abortedBySession.getOrDefault(session, 0L),
                    "connection " + id + ": all its session's requests: " + served + " of " + n);
            sessionsWithThinkTimes += requestsBySession.get(session) > 1 ? 1 : 0;
        }
        assertTrue(
                sessionsWithThinkTimes >= USERS / 2,
                "sessions kept their connection across think times: " + sessionsWithThinkTimes);
    }

    @Test
    void eachSessionKeepsOneConnectionAcrossItsThinkTimesAndLogsEveryRequest() throws Exception {
        Run r = run("complete", 0);
        assertEquals("complete", r.summary.get("status").asText(), r.summary.toString());
        sessionsKeepTheirConnectionAndEveryRequestIsLogged(r);
        long cut = r.sessions.stream()
                .filter(s -> s.get("end_reason").equals("run_ended"))
                .count();
        assertTrue(
                cut > 0 && cut <= USERS, "at the end, the sessions in progress (at most one a user) are cut: " + cut);
        assertTrue(r.sessions.size() > cut, "sessions ended before the end of the run, and their users went on");
    }

    @Test
    void aStopInTheMiddleEndsThinkingSessionsWithTheirAccountingWhole() throws Exception {
        // Stopped once the run has logged about ten requests a user (most users in a session, thinking), whatever the
        // host's load: a stop after a fixed delay could come before the run phase had sent anything.
        Run r = run("stopped", 10 * USERS);
        assertEquals("partial", r.summary.get("status").asText(), r.summary.toString());
        sessionsKeepTheirConnectionAndEveryRequestIsLogged(r);
        assertTrue(r.sessions.stream().anyMatch(s -> s.get("end_reason").equals("run_ended")), "the stop cut sessions");
    }
}
