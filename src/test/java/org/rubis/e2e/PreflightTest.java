package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate --target URL} against a rubis-server of known size, started apart from the client as a user's own
 * deployment: a configuration that asks for more users, items and regions than its database holds gets one line per
 * problem and exit 69; one that matches passes. The server's own settings are the truth: its population policy (400
 * users, 200 old items, the packaged regions and categories) and its {@code --max-keepalive-requests 7}.
 */
class PreflightTest {

    private static final Path PROPERTIES_DIR =
            Path.of("..", "..", "rubis-properties").toAbsolutePath();

    @TempDir
    static Path dir;

    private static ForeignServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Path policy = dir.resolve("server.properties");
        Files.writeString(
                policy,
                "database_number_of_users = 400\n"
                        + "database_number_of_old_items = 10000\n"
                        + "database_regions_file = " + PROPERTIES_DIR.resolve("ebay_regions.txt") + "\n"
                        + "database_categories_file = " + PROPERTIES_DIR.resolve("ebay_simple_categories.txt") + "\n");
        // --size 0.02: 10000 x 0.02 = 200 old items
        server = ForeignServer.start(
                dir.resolve("server"), "--size", "0.02", "-p", policy.toString(), "--max-keepalive-requests", "7");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aConfigurationLargerThanTheDatabaseFailsOneLinePerProblem() throws Exception {
        Path regions = dir.resolve("regions-plus-one.txt");
        Files.writeString(
                regions,
                Files.readString(PROPERTIES_DIR.resolve("ebay_regions.txt")).strip() + "\nZZ--Atlantis\n");
        Cli.Result r = Cli.run(
                dir,
                120,
                "validate",
                "--target",
                server.target(),
                "-Ddatabase_regions_file=" + regions,
                "-Ddatabase_number_of_old_items=1000");
        assertEquals(69, r.status(), r.out() + r.err());
        List<String> problems =
                r.out().lines().filter(l -> l.startsWith("  PROBLEM ")).toList();
        assertEquals(3, problems.size(), r.out());
        assertTrue(problem(problems, "users:").contains("database_number_of_users = 5000"), r.out());
        assertTrue(problem(problems, "items:").contains("ViewItem.php?itemId=1000"), r.out());
        assertTrue(problem(problems, "items:").contains("database_number_of_old_items = 1000"), r.out());
        assertTrue(problem(problems, "regions:").contains("not listed: \"ZZ--Atlantis\""), r.out());
        assertTrue(r.out().contains("Pre-flight: 3 problems"), r.out());
        assertTrue(r.err().isEmpty(), r.err());
    }

    @Test
    void aMatchingConfigurationPassesAndTheKeepAliveLimitIsTheServers() throws Exception {
        Cli.Result r = Cli.run(
                dir,
                120,
                "validate",
                "--target",
                server.target(),
                "-Ddatabase_number_of_users=400",
                "-Ddatabase_number_of_old_items=200");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("Pre-flight: OK"), r.out());
        assertTrue(r.out().contains("user400 logs in"), r.out());
        assertTrue(r.out().contains("ViewItem?itemId=200 answers"), r.out());
        assertTrue(r.out().contains("keep-alive: the server closed one connection after 7 requests"), r.out());
        assertTrue(r.out().contains("states of Default transition set answered"), r.out());
    }

    /** run --preflight makes the checks before any load: a target too small stops it, no run directory written. */
    @Test
    void runWithPreflightStopsBeforeAnyLoadWhenTheTargetDoesNotFit() throws Exception {
        Path out = dir.resolve("preflight-run");
        Cli.Result r = Cli.run(
                dir,
                120,
                "run",
                "--target",
                server.target(),
                "--preflight",
                "--users",
                "2",
                "--duration",
                "2s",
                "--out",
                out.toString());
        assertEquals(69, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("PROBLEM  users:"), r.out());
        assertTrue(!r.out().contains("keep-alive:"), "a run makes no keep-alive probe: " + r.out());
        assertTrue(r.err().contains("nothing was sent to it beyond the checks"), r.err());
        assertTrue(!Files.exists(out.resolve("requests.csv")), "a run directory with requests");
    }

    @Test
    void aTargetThatDoesNotAnswerIsOneProblem() throws Exception {
        Cli.Result r = Cli.run(dir, 120, "validate", "--target", "http://127.0.0.1:1");
        assertEquals(69, r.status(), r.out() + r.err());
        List<String> problems =
                r.out().lines().filter(l -> l.startsWith("  PROBLEM ")).toList();
        assertEquals(1, problems.size(), r.out());
        assertTrue(
                problems.getFirst().contains("target:") && problems.getFirst().contains("did not answer"), r.out());
    }

    private static String problem(List<String> problems, String check) {
        return problems.stream().filter(p -> p.contains(check)).findFirst().orElse("none for " + check);
    }
}
