package org.rubis.client.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The client's packages form layers (docs/ARCHITECTURE.md): no package cycle, and the engine does
 * not know command-line flags. Read from the main sources (imports and fully qualified names), so
 * it needs no library and fails on the commit that adds a cycle.
 */
class PackageLayersTest {

    private static final Path MAIN = Path.of("src/main/java/org/rubis/client");
    private static final Pattern REF = Pattern.compile("org\\.rubis\\.client\\.([a-z]+)\\.");

    /** package -> packages it refers to. */
    private static Map<String, Set<String>> graph() throws IOException {
        Map<String, Set<String>> g = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = MAIN.relativize(f.getParent()).toString().replace('/', '.');
                Set<String> deps = g.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REF.matcher(Files.readString(f));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        deps.add(m.group(1));
                    }
                }
            }
        }
        return g;
    }

    @Test
    void noPackageCycles() throws IOException {
        Map<String, Set<String>> g = graph();
        assertTrue(g.keySet().containsAll(List.of("engine", "backend", "config", "workload", "report", "log", "cli")), "sources found: " + g.keySet());
        List<String> cycles = new ArrayList<>();
        for (String start : g.keySet()) {
            findCycle(g, start, new ArrayList<>(List.of(start)), cycles);
        }
        assertEquals(List.of(), cycles, "package graph: " + g);
    }

    private static void findCycle(Map<String, Set<String>> g, String node, List<String> path, List<String> cycles) {
        for (String next : g.getOrDefault(node, Set.of())) {
            if (next.equals(path.get(0))) {
                cycles.add(String.join(" -> ", path) + " -> " + next);
            } else if (!path.contains(next) && next.compareTo(path.get(0)) > 0) {
                path.add(next);
                findCycle(g, next, path, cycles);
                path.remove(path.size() - 1);
            }
        }
    }

    @Test
    void lowerPackagesDoNotReachUp() throws IOException {
        Map<String, Set<String>> g = graph();
        // The run format and input errors are at the bottom; the engine does not launch processes by flags or know the CLI.
        assertEquals(Set.of(), g.get("input"), "input depends on nothing of ours");
        assertTrue(!g.get("engine").contains("cli") && !g.get("engine").contains("experiment"), "engine -> " + g.get("engine"));
        assertTrue(!g.get("report").contains("engine"), "report -> " + g.get("report"));
        assertTrue(!g.get("workload").contains("config"), "workload -> " + g.get("workload"));
    }

    @Test
    void engineKnowsNoCommandLineFlags() throws IOException {
        Pattern flag = Pattern.compile("\"--[a-z]");
        try (Stream<Path> files = Files.list(MAIN.resolve("engine"))) {
            for (Path f : files.toList()) {
                assertTrue(!flag.matcher(Files.readString(f)).find(), f + " names a command-line flag");
            }
        }
    }
}
