package org.rubis.cli;

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
 * docs/ARCHITECTURE.md is a map a maintainer trusts only while it matches the code, so it is checked against the
 * source tree: its module diagram against the modules' imports, its package diagrams against the packages that hold
 * classes. A package added, moved or removed fails here until the doc says so.
 */
class ArchitectureDocTest {

    private static final Path ROOT = Path.of("..");
    private static final Path DOC = ROOT.resolve("docs/ARCHITECTURE.md");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?org\\.rubis\\.([a-z0-9]+)\\.");
    private static final Pattern NODE = Pattern.compile("(\\w+)\\[\"([^\"]*)\"]");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(rubis-[a-z0-9-]+)</artifactId>");

    /** A module of the build: its node in the diagram, its main code, the root package below org.rubis. */
    private record Module(String node, Path main, String rootPackage) {}

    private static final List<Module> MODULES = List.of(
            new Module("properties", ROOT.resolve("rubis-properties/src/main/java"), "properties"),
            new Module("format", ROOT.resolve("rubis-format/src/main/java"), "format"),
            new Module("server", ROOT.resolve("rubis-server/src/main/java"), "server"),
            new Module("analysis", ROOT.resolve("rubis-analysis/src/main/java"), "analysis"),
            new Module("client", ROOT.resolve("rubis-client/src/main/java"), "client"),
            new Module("lab", ROOT.resolve("rubis-lab/src/main/java"), "lab"),
            new Module("cli", ROOT.resolve("rubis-cli/src/main/java"), "cli"),
            new Module("jmh", ROOT.resolve("jmh/src/main/java"), "jmh"),
            new Module("e2e", ROOT.resolve("src/test/java"), "e2e"));

    /** The node of each module's artifact, as the poms name them. */
    private static final Map<String, String> NODE_OF_ARTIFACT = Map.of(
            "rubis-properties", "properties",
            "rubis-format", "format",
            "rubis-server", "server",
            "rubis-analysis", "analysis",
            "rubis-client", "client",
            "rubis-lab", "lab",
            "rubis-cli", "cli",
            "rubis-jmh", "jmh",
            "rubis-e2e", "e2e");

    @Test
    void theModuleDiagramHasAnArrowForEachModuleAnotherImportsOrNeedsAtRunTime() throws IOException {
        String block = mermaidBlocks(section("## Modules")).get(0);
        Set<String> solid = new TreeSet<>();
        Set<String> dotted = new TreeSet<>();
        for (String line : block.split("\n")) {
            Matcher from = Pattern.compile("^\\s*(\\w+)").matcher(line);
            if (!from.find()) {
                continue;
            }
            String source = from.group(1);
            Matcher arrow = Pattern.compile("(-->|-\\.->(?:\\|\"[^\"]*\"\\|)?)\\s*(\\w+(?:\\s*&\\s*\\w+)*)")
                    .matcher(line);
            while (arrow.find()) {
                for (String target : arrow.group(2).split("\\s*&\\s*")) {
                    (arrow.group(1).equals("-->") ? solid : dotted).add(source + " -> " + target);
                }
            }
        }
        Set<String> imported = new TreeSet<>();
        Set<String> runtime = new TreeSet<>();
        for (Module m : MODULES) {
            Set<String> uses = importedModules(m);
            uses.forEach(u -> imported.add(m.node() + " -> " + u));
            for (String dep : pomDependencies(m)) {
                if (dep.equals("properties")) {
                    imported.add(m.node() + " -> " + dep); // its resources are read, its classes none
                } else if (!uses.contains(dep)) {
                    runtime.add(m.node() + " -> " + dep);
                }
            }
        }
        assertEquals(
                imported,
                solid,
                "docs/ARCHITECTURE.md's module diagram: a solid arrow for each module whose classes another imports");
        assertEquals(
                runtime,
                dotted,
                "docs/ARCHITECTURE.md's module diagram: a dotted arrow for each module another depends on without"
                        + " importing it (started, shaded or run)");
    }

    @Test
    void everyPackageWithClassesIsNamedInTheDiagramOfItsModule() throws IOException {
        String packages = section("## Packages");
        List<String> blocks = mermaidBlocks(packages);
        Map<String, Set<String>> named = new TreeMap<>();
        named.put("client", names(blocks.get(0)));
        for (String block : blocks.subList(1, blocks.size())) {
            Matcher sub = Pattern.compile("subgraph \\w+\\[\"rubis-(\\w+)\"]([\\s\\S]*?)\\n\\s*end\\b")
                    .matcher(block);
            while (sub.find()) {
                named.put(sub.group(1), names(sub.group(2)));
            }
        }
        String doc = Files.readString(DOC);
        List<String> missing = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (Module m : MODULES) {
            Set<String> actual = packagesWithClasses(m);
            Set<String> inDiagram = named.get(m.node());
            for (String p : actual) {
                boolean nested = p.contains(".");
                // a package by its box, or by name in the section's prose (`input`, the bottom...); a nested one
                // (backend.kernel), or one of a module without a diagram (rubis-format), by its name anywhere
                boolean inDoc = p.equals("root")
                        || (!nested && inDiagram != null && inDiagram.contains(p))
                        || (nested || inDiagram == null ? doc : packages).contains("`" + p + "`")
                        || (nested || inDiagram == null ? doc : packages).contains("`" + p + ".");
                if (!inDoc) {
                    missing.add("rubis-" + m.node() + " " + p);
                }
            }
            if (inDiagram != null) {
                for (String n : inDiagram) {
                    if (!actual.contains(n)) {
                        stale.add("rubis-" + m.node() + " " + n);
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "packages docs/ARCHITECTURE.md does not name: " + missing);
        assertTrue(stale.isEmpty(), "docs/ARCHITECTURE.md names packages that hold no class: " + stale);
    }

    /** The node names of a diagram: a labelled node by its label's first word, a bare one by its id. */
    private static Set<String> names(String block) {
        Set<String> labelled = new TreeSet<>();
        Set<String> ids = new TreeSet<>();
        Matcher node = NODE.matcher(block);
        while (node.find()) {
            ids.add(node.group(1));
            String label = node.group(2).split("[:\\s]", 2)[0];
            if (!label.startsWith("rubis-")) { // another module's box
                labelled.add(label);
            }
        }
        Set<String> bare = new TreeSet<>();
        Matcher word =
                Pattern.compile("(?m)(?:^\\s*|-->\\s*|&\\s*)(\\w+)(?=\\s|$)").matcher(block);
        while (word.find()) {
            String w = word.group(1);
            if (!ids.contains(w) && !w.equals("subgraph") && !w.equals("end") && !w.equals("flowchart")) {
                bare.add(w);
            }
        }
        labelled.addAll(bare);
        return labelled;
    }

    /** Packages below the module's root package that hold a class, relative to it ("root" for the root itself). */
    private static Set<String> packagesWithClasses(Module m) throws IOException {
        Set<String> out = new TreeSet<>();
        Path base = m.main().resolve("org/rubis/" + m.rootPackage());
        if (!Files.isDirectory(base)) {
            return out;
        }
        try (Stream<Path> files = Files.walk(base)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                String rel = base.relativize(f.getParent()).toString().replace('/', '.');
                out.add(rel.isEmpty() ? "root" : rel);
            });
        }
        return out;
    }

    /** The other modules whose packages the module's code imports. */
    private static Set<String> importedModules(Module m) throws IOException {
        Set<String> out = new TreeSet<>();
        if (!Files.isDirectory(m.main())) {
            return out;
        }
        try (Stream<Path> files = Files.walk(m.main())) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                Matcher i = IMPORT.matcher(Files.readString(f));
                while (i.find()) {
                    out.add(i.group(1));
                }
            }
        }
        out.remove(m.rootPackage());
        out.retainAll(NODE_OF_ARTIFACT.values());
        return out;
    }

    /** The project modules the module's pom depends on, outside test scope (rubis-boot, the launcher, aside). */
    private static Set<String> pomDependencies(Module m) throws IOException {
        Path pom = m.node().equals("e2e")
                ? ROOT.resolve("src/test/pom.xml")
                : m.main().getParent().getParent().getParent().resolve("pom.xml");
        String xml = Files.readString(pom).replaceAll("(?s)<parent>.*?</parent>", "");
        Set<String> out = new TreeSet<>();
        Matcher dep = Pattern.compile("(?s)<dependency>(.*?)</dependency>").matcher(xml);
        while (dep.find()) {
            String d = dep.group(1);
            Matcher a = ARTIFACT.matcher(d);
            if (a.find() && !d.contains("<scope>test</scope>") && NODE_OF_ARTIFACT.containsKey(a.group(1))) {
                out.add(NODE_OF_ARTIFACT.get(a.group(1)));
            }
        }
        return out;
    }

    private static String section(String heading) throws IOException {
        String doc = Files.readString(DOC);
        int from = doc.indexOf("\n" + heading + "\n");
        assertTrue(from >= 0, "docs/ARCHITECTURE.md has no section " + heading);
        int to = doc.indexOf("\n## ", from + heading.length() + 2);
        return doc.substring(from, to < 0 ? doc.length() : to);
    }

    private static List<String> mermaidBlocks(String text) {
        List<String> out = new ArrayList<>();
        Matcher b = Pattern.compile("(?s)```mermaid\\n(.*?)```").matcher(text);
        while (b.find()) {
            out.add(b.group(1));
        }
        return out;
    }
}
