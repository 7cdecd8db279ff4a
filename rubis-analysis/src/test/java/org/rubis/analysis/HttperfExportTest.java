package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.export.HttperfExport;
import org.rubis.analysis.io.RunDirectory;

class HttperfExportTest {

    @TempDir
    Path tmp;

    @Test
    void exportedSessionsReadBackAsLogged() throws Exception {
        SyntheticRun r = new SyntheticRun();
        // Session 7 starts first but ends last; the log is in completion order, interleaved.
        r.request(7, 0, "Home", "/PHP/index.html", "run", 0, 0, 2_000_000, "", "a", true);
        r.request(9, 0, "Home", "/PHP/index.html", "run", 500_000_000, 500_000_000, 1_000_000, "", "b", true);
        r.request(9, 1, "Browse", "/PHP/browse.html", "run", 800_000_000, 800_000_000, 1_000_000, "", "b", false);
        r.request(
                7,
                1,
                "ViewItem",
                "/PHP/ViewItem.php?itemId=3",
                "run",
                1_200_000_000,
                1_200_500_000,
                3_000_000,
                "",
                "a",
                false);
        r.request(
                7,
                2,
                "PutBidAuth",
                "/PHP/PutBidAuth.php?itemId=3",
                "run",
                3_000_000_000L,
                3_000_000_000L,
                1_000_000,
                "",
                "a",
                false);
        r.session(9, 500_000_000, 801_000_000, 2, "end_of_session");
        r.session(7, 0, 3_001_000_000L, 3, "end_of_session");
        Path run = r.write(tmp.resolve("run"));
        int n = new HttperfExport(new RunDirectory(run)).write(tmp.resolve("out"));
        assertEquals(2, n);
        List<HttperfExport.Session> back = HttperfExport.read(tmp.resolve("out/sessions.wsesslog"));
        assertEquals(2, back.size());
        assertEquals(7, back.get(0).id(), "sessions in the order they started");
        assertEquals(
                List.of("/PHP/index.html", "/PHP/ViewItem.php?itemId=3", "/PHP/PutBidAuth.php?itemId=3"),
                back.get(0).paths());
        // think = next send - this request's completion
        assertEquals(1.2005 - 0.002, back.get(0).thinkSeconds().get(0), 1e-6);
        assertEquals(3.0 - 1.2035, back.get(0).thinkSeconds().get(1), 1e-6);
        assertEquals(List.of("/PHP/index.html", "/PHP/browse.html"), back.get(1).paths());
        assertEquals(0.8 - 0.501, back.get(1).thinkSeconds().get(0), 1e-6);
        List<String> ia = Files.readAllLines(tmp.resolve("out/interarrivals.txt")).stream()
                .filter(l -> !l.startsWith("#"))
                .toList();
        assertEquals(List.of("0.000000", "500.000000"), ia);
        assertTrue(Files.readString(tmp.resolve("out/README.txt")).contains("--wsesslog=2,0,sessions.wsesslog"));
    }

    private Path twoSessionRun(Path dir) throws Exception {
        SyntheticRun r = new SyntheticRun();
        r.request(1, 0, "Home", "/PHP/index.html", "run", 0, 0, 1_000_000, "", "a", true);
        r.request(2, 0, "Home", "/PHP/index.html", "run", 400_000_000, 400_000_000, 1_000_000, "", "b", true);
        r.session(1, 0, 1_000_000, 1, "end_of_session");
        r.session(2, 400_000_000, 401_000_000, 1, "end_of_session");
        return r.write(dir);
    }

    @Test
    void commandUsesTheRunsUrlTargetAndExplainsTheClosedPopulation() throws Exception {
        Path run = twoSessionRun(tmp.resolve("run"));
        Files.writeString(
                run.resolve("summary.json"),
                "{\"status\":\"complete\",\"target\":\"https://127.0.0.2:9443\",\"arrivals\":\"closed\",\"users\":40}");
        new HttperfExport(new RunDirectory(run)).write(tmp.resolve("out"));
        String readme = Files.readString(tmp.resolve("out/README.txt"));
        assertTrue(readme.contains("httperf --hog --server 127.0.0.2 --port 9443 --ssl --wsesslog=2,0,"), readme);
        assertTrue(readme.contains("closed run (40 emulated users)"), readme);
        assertTrue(readme.contains("--target https://127.0.0.2:9443"), readme);
        // Not the placeholder used when no target is recorded. (Match the flag, not the digits:
        // the temporary directory's random name may contain "8080".)
        assertTrue(!readme.contains("--port 8080") && !readme.contains("127.0.0.1:8080"), readme);
    }

    @Test
    void embeddedTargetUsesThePortTheServerReported() throws Exception {
        Path run = twoSessionRun(tmp.resolve("run"));
        Files.writeString(
                run.resolve("summary.json"),
                "{\"status\":\"complete\",\"target\":\"embedded\",\"arrivals\":\"hybrid\",\"server\":{\"model\":\"prefork\"}}");
        Files.createDirectories(run.resolve("server"));
        Files.writeString(
                run.resolve("server/server.log"),
                "rubis-server ready: http://127.0.0.1:35933/PHP/ (model prefork, 10 items)\n");
        new HttperfExport(new RunDirectory(run)).write(tmp.resolve("out"));
        String readme = Files.readString(tmp.resolve("out/README.txt"));
        assertTrue(readme.contains("--server 127.0.0.1 --port 35933 --wsesslog"), readme);
        assertTrue(readme.contains("java -jar rubis-server.jar --port 35933 --model prefork"), readme);
        assertTrue(!readme.contains("closed run"), readme);
    }

    /** What summary.json says goes into the README's commands as one shell word: nothing in it runs. */
    @Test
    void aSummarysWordsAreQuotedInTheCommands() throws Exception {
        Path run = twoSessionRun(tmp.resolve("run"));
        Files.writeString(
                run.resolve("summary.json"),
                "{\"status\":\"complete\",\"target\":\"embedded\",\"arrivals\":\"hybrid\","
                        + "\"server\":{\"model\":\"event; touch X'\"}}");
        Files.createDirectories(run.resolve("server"));
        Files.writeString(
                run.resolve("server/server.log"),
                "rubis-server ready: http://127.0.0.1:35933/PHP/ (model event, 10 items)\n");
        new HttperfExport(new RunDirectory(run)).write(tmp.resolve("out"));
        String readme = Files.readString(tmp.resolve("out/README.txt"));
        assertTrue(readme.contains("--port 35933 --model 'event; touch X'\\''' --keepalive-ms"), readme);
        assertTrue(!readme.contains("--model event; touch"), readme);
    }
}
