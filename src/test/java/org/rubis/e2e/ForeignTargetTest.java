package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs against a rubis-server started apart from the client, as a user's own deployment: its database persists from
 * run to run, and its process is on the client's host but is not the client's embedded server.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class ForeignTargetTest {

    @TempDir
    static Path dir;

    private static ForeignServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = ForeignServer.start(dir.resolve("server"), "--size", "0.02");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** A short run against the foreign server: 40 users for 10 s, thinking a twentieth of the time. */
    private static String[] args(String name, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--target",
                server.target(),
                "--users",
                "40",
                "--duration",
                "10s",
                "--ramp-up",
                "0s",
                "--ramp-down",
                "0s",
                "--think-scale",
                "0.05",
                "--jit-warmup",
                "off",
                "--seed",
                "7",
                "--out",
                dir.resolve(name).toString()));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    /**
     * The runs {@code runs} (name, then its extra arguments) side by side, each checked to have ended as a run does
     * and its console kept in {@code test-console.txt}; their directories in the same order.
     */
    private static List<Path> runs(List<List<String>> runs) throws Exception {
        List<String[]> all = new ArrayList<>();
        for (List<String> r : runs) {
            all.add(args(r.getFirst(), r.subList(1, r.size()).toArray(String[]::new)));
        }
        List<Cli.Result> results = BackgroundRun.all(dir, 180, all);
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Cli.Result r = results.get(i);
            Path out = dir.resolve(runs.get(i).getFirst());
            assertTrue(r.status() == 0 || r.status() == 99, "exit " + r.status() + ": " + r.out() + r.err());
            Files.writeString(out.resolve("test-console.txt"), r.out() + r.err());
            dirs.add(out);
        }
        return dirs;
    }

    /**
     * The first salted and the first unsalted run, side by side (their nicknames cannot collide: the salted ones end in
     * the salt), made once for both tests: the second test reads the salted one's console and summary.
     */
    private static synchronized List<Path> firstRuns() throws Exception {
        if (firstRuns == null) {
            firstRuns = runs(List.of(List.of("salted-1"), List.of("plain-1", "-Dclient_write_salt=none")));
        }
        return firstRuns;
    }

    private static List<Path> firstRuns;

    /** The requests.csv rows of {@code state}: {error, nickname} each. */
    private static List<String[]> registrations(Path run) throws Exception {
        List<String> lines = Files.readAllLines(run.resolve("requests.csv"));
        List<String> head = RunDir.split(lines.getFirst());
        int state = head.indexOf("state");
        int path = head.indexOf("path");
        int error = head.indexOf("error");
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = RunDir.split(line);
            if (f.get(state).equals("RegisterUser")) {
                rows.add(new String[] {f.get(error), f.get(path).replaceAll(".*[?&]nickname=([^&]*).*", "$1")});
            }
        }
        return rows;
    }

    private static long count(Path run, String errorClass) throws Exception {
        List<String> lines = Files.readAllLines(run.resolve("requests.csv"));
        int error = RunDir.split(lines.getFirst()).indexOf("error");
        return lines.stream()
                .skip(1)
                .filter(l -> RunDir.split(l).get(error).equals(errorClass))
                .count();
    }

    /**
     * Two runs with one seed against one persistent database: with the per-run salt the second registers no nickname
     * the first did and gets no "already taken" page; without it (client_write_salt = none, the original's
     * behaviour) the second run's repeated registrations are target-state pages, and the verdict blames no one.
     */
    @Test
    void runsWithOneSeedDoNotCollideInAPersistentDatabase() throws Exception {
        // Each second run after its first; the salted and the unsalted pair side by side.
        Path first = firstRuns().get(0);
        Path plain1 = firstRuns().get(1);
        List<Path> seconds = runs(List.of(List.of("salted-2"), List.of("plain-2", "-Dclient_write_salt=none")));
        Path second = seconds.get(0);
        Path plain2 = seconds.get(1);
        List<String[]> a = registrations(first);
        List<String[]> b = registrations(second);
        assertFalse(a.isEmpty() || b.isEmpty(), "no RegisterUser in the runs: " + a.size() + ", " + b.size());
        Set<String> nicknames = new HashSet<>();
        a.forEach(r -> nicknames.add(r[1]));
        for (String[] r : b) {
            assertFalse(nicknames.contains(r[1]), "the second run registered " + r[1] + " again");
        }
        assertEquals(0, count(second, "target-state"), "duplicate-nickname pages in the second salted run");
        JsonNode s1 = new ObjectMapper().readTree(first.resolve("summary.json").toFile());
        JsonNode s2 = new ObjectMapper().readTree(second.resolve("summary.json").toFile());
        assertEquals(s1.get("seed").asLong(), s2.get("seed").asLong());
        String salt1 = s1.get("write_salt").asText();
        String salt2 = s2.get("write_salt").asText();
        assertTrue(salt1.matches("[a-z0-9]{5}") && !salt1.equals(salt2), salt1 + " " + salt2);
        assertTrue(a.stream().allMatch(r -> r[1].endsWith("_" + salt1)), "nicknames without the salt " + salt1);

        Set<String> registered = new HashSet<>();
        registrations(plain1).stream().filter(r -> r[0].isEmpty()).forEach(r -> registered.add(r[1]));
        List<String[]> again = registrations(plain2);
        long taken = again.stream().filter(r -> r[0].equals("target-state")).count();
        assertTrue(taken > 0, "no target-state page when the second run registers the first run's nicknames again");
        for (String[] r : again) {
            if (r[0].equals("target-state")) {
                assertTrue(registered.contains(r[1]), r[1] + " was not registered by the first run");
            }
        }
        assertEquals(taken, count(plain2, "target-state"), "target-state pages outside RegisterUser");
        JsonNode p2 = new ObjectMapper().readTree(plain2.resolve("summary.json").toFile());
        String verdict = p2.path("client_health").path("verdict").asText();
        assertTrue(verdict.contains("reported the target's stored state"), verdict);
        List<String> causes = new ArrayList<>();
        p2.path("client_health").path("causes").forEach(c -> causes.add(c.asText()));
        assertFalse(causes.contains("ERRORS"), "the verdict blamed the errors for target-state pages: " + verdict);
    }

    /**
     * The foreign server's process is found from the port it listens on: its CPU is the server's in the summary and
     * the verdict, not other processes'.
     */
    @Test
    void theTargetsProcessIsFoundFromItsPortAndItsCpuIsTheServers() throws Exception {
        Path run = firstRuns().get(0);
        String console = Files.readString(run.resolve("test-console.txt"));
        assertTrue(console.contains("Target's processes on this host: java (pid " + server.pid() + ")"), console);
        JsonNode h = new ObjectMapper()
                .readTree(run.resolve("summary.json").toFile())
                .path("client_health");
        assertEquals(
                "the target's processes (java (pid " + server.pid() + "))",
                h.path("server_cpu_of").asText());
        assertTrue(h.path("server_cpu_cores").asDouble(-1) > 0, h.toString());
        assertTrue(
                h.path("verdict").asText().contains("target's processes (java (pid " + server.pid() + "))"),
                h.path("verdict").asText());
    }
}
