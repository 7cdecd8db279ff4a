package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server_faults reaches the embedded server, whose ground truth names the faulted requests; bad specs and flags are refused. */
class ServerFaultsTest {

    @TempDir Path work;

    @Test
    void theEmbeddedServerInjectsTheConfiguredFaultsAndSaysWhich() throws Exception {
        Cli.Result r = Cli.run(work, 120, "run", "--users", "5", "--ramp-up", "0", "--duration", "3s", "--ramp-down", "0", "--think-scale", "0.03",
                "--backend", "pooled", "--out", "f", "--no-progress", "-Dserver_size=0.02", "-Dserver_faults=status=503:0.2");
        RunDir d = new RunDir(work.resolve("f"));
        List<Map<String, String>> server = d.csv("server/requests.csv");
        long faulted = server.stream().filter(x -> x.get("fault").equals("status")).count();
        assertTrue(faulted > 0 && faulted < server.size(), faulted + " of " + server.size() + "; " + r.out() + r.err());
        assertTrue(server.stream().filter(x -> x.get("fault").equals("status")).allMatch(x -> x.get("status").equals("503")));
        long client503 = d.csv("requests.csv").stream().filter(x -> x.get("status").equals("503")).count();
        assertEquals(faulted, client503, "the client saw exactly the 503s the server injected");
        assertEquals(faulted, d.json("server/stats.json").path("faults").path("status").asLong());
    }

    @Test
    void aBadSpecOrAnUnsafeJvmFlagIsAOneLineErrorBeforeAnythingStarts() throws Exception {
        Cli.Result r = Cli.run(work, 60, "run", "--duration", "2s", "--out", "x", "-Dserver_faults=explode:0.5");
        assertNotEquals(0, r.status());
        assertTrue(r.err().contains("server_faults: fault spec \"explode:0.5\": \"explode\": unknown fault kind"), r.err());
        Cli.Result j = Cli.run(work, 60, "run", "--duration", "2s", "--out", "y", "-Dserver_java_options=-XX:OnOutOfMemoryError=/bin/true");
        assertNotEquals(0, j.status());
        assertTrue(j.err().contains("server_java_options: JVM flag \"-XX:OnOutOfMemoryError=/bin/true\" refused: it runs a command"), j.err());
        assertTrue(!j.err().contains("\tat "), "no stack trace: " + j.err());
    }
}
