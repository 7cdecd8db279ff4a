package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heap-per-idle-user figure bench scale prints (issue 14), on a run small enough for CI: the
 * summary records it with the class histograms it came from. Only that it was measured and is
 * positive is asserted; its size depends on the JVM and the machine (docs/BENCHMARKS.md has it).
 */
@Isolated("the two class histograms are 2 s apart or more: beside other runs, what the client's own threads allocate"
        + " between them outweighed 500 users once (bytes_per_user -354 on an idle host with three classes at a time)")
class HeapPerUserRunTest {

    @TempDir
    static Path work;

    // Think-scale 0.2 (mean 1.4 s): every user has connected and is mostly thinking when the users are measured.
    @ParameterizedTest
    @ValueSource(strings = {"netty", "virtual"})
    void theSummaryRecordsTheHeapPerIdleUser(String model) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--users",
                "500",
                "--ramp-up",
                "2s",
                "--duration",
                "2s",
                "--ramp-down",
                "4s",
                "--think-scale",
                "0.2",
                "--seed",
                "5",
                "--out",
                model,
                "--no-progress",
                "--heap-per-user",
                "-Dserver_keepalive_timeout_ms=0",
                "-Dserver_size=0.02"));
        args.addAll(
                model.equals("netty")
                        ? List.of("--backend", "netty")
                        : List.of("--backend", "dedicated", "--threads", "virtual"));
        Cli.Result r = Cli.run(
                work,
                180,
                Cli.FULL_JIT,
                args.toArray(String[]::new)); // a user's JIT: C2's escape analysis is part of the heap per user
        assertEquals(0, r.status(), r.out() + r.err());
        RunDir d = new RunDir(work.resolve(model));
        JsonNode heap = d.json("summary.json").get("heap_per_user");
        assertEquals(500, heap.get("users").asInt(), heap.toString());
        assertTrue(heap.path("bytes_per_user").asLong() > 0, "measured and positive: " + heap);
        // The users' heap is what the histogram with them holds over the one after them, once the statistics'
        // own growth between the two is added back (their histograms resize as the down ramp's larger times come).
        assertTrue(
                heap.get("live_bytes_with_users").asLong()
                                + heap.get("statistics_bytes_grown").asLong()
                        > heap.get("live_bytes_after_sessions").asLong(),
                heap.toString());
        assertTrue(
                heap.get("top_classes").size() > 0
                        && heap.get("top_classes").get(0).get("bytes_per_user").asDouble() > 0,
                heap.toString());
        for (String f : List.of("heap-histogram-before.txt", "heap-histogram-users.txt", "heap-histogram-after.txt")) {
            assertTrue(Files.readString(work.resolve(model).resolve(f)).contains("Total"), f);
        }
        assertTrue(Files.readString(work.resolve(model).resolve("summary.txt")).contains("Heap per idle user"));
    }
}
