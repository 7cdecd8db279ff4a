package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs in a child JVM with a profile's flags (running out of heap in one: {@link OutOfHeapRunTest}). */
class JvmProfileTest {

    @TempDir
    Path work;

    /** The run directory's name has the characters -Xlog splits its option at (: and ,): the child's GC log is there all the same. */
    @Test
    void aProfileRunsTheEmulationInAChildJvmAndRecordsIt() throws Exception {
        Cli.Result r = Cli.run(
                work,
                120,
                "run",
                "--jvm-profile",
                "paper-default",
                "--users",
                "20",
                "--ramp-up",
                "0",
                "--duration",
                "2s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.05",
                "--out",
                "p:d,1",
                "--no-progress",
                "--target",
                SharedServer.target());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().startsWith("JVM profile paper-default: "), r.out());
        RunDir d = new RunDir(work.resolve("p:d,1"));
        JsonNode jvm = d.json("summary.json").get("jvm");
        assertEquals("paper-default", jvm.get("profile").asText());
        List<String> flags = new ObjectMapper().convertValue(jvm.get("flags"), new TypeReference<List<String>>() {});
        assertTrue(flags.containsAll(List.of("-Xmx64m", "-XX:+UseSerialGC")), flags.toString());
        assertTrue(jvm.get("max_heap_bytes").asLong() <= 64L << 20);
        assertTrue(
                jvm.get("gc").toString().contains("Copy")
                        || jvm.get("gc").toString().contains("MarkSweepCompact"),
                jvm.toString());
        assertTrue(
                Files.readString(work.resolve("p:d,1/gc.log")).contains("Using Serial"), "GC log in the run directory");
        Cli.Result quote = Cli.run(work, 60, "run", "--jvm-profile", "default", "--duration", "1s", "--out", "q\"x");
        assertEquals(64, quote.status(), quote.err());
        assertEquals(
                "error: --out q\"x: a double quote in the path cannot be given to the child JVM's GC log (-Xlog has no escape for it); "
                        + "choose a directory name without one",
                quote.err().strip());
        assertTrue(!Files.exists(work.resolve("q\"x")), "nothing created");
        assertTrue(d.csv("requests.csv").size() > 20);
    }
}
