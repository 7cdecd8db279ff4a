package org.rubis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/cli/ is what the programs' command lines say today: each program's pages are regenerated into a temporary
 * directory and compared with the checked-in ones, file by file; a page missing, extra or different fails with the
 * command that regenerates them.
 */
class CliReferenceTest {

    private static final Path DOCS = Path.of("..", "docs", "cli");
    private static final String REGENERATE = "mvn -B -q -Pcli-docs -DskipTests package";

    @TempDir
    static Path generated;

    private static void written() throws IOException {
        if (!Files.exists(generated.resolve("README.md"))) {
            CliDocs.write(generated);
        }
    }

    private static void assertCurrent(String prefix) throws IOException {
        written();
        TreeSet<String> expected = names(generated, prefix);
        TreeSet<String> actual = names(DOCS, prefix);
        assertTrue(!expected.isEmpty(), "no page generated for " + prefix);
        assertEquals(
                expected,
                actual,
                "docs/cli/ has other pages than the commands of " + prefix + ": regenerate it with " + REGENERATE);
        List<String> stale = new ArrayList<>();
        for (String name : expected) {
            if (!Files.readString(generated.resolve(name)).equals(Files.readString(DOCS.resolve(name)))) {
                stale.add(name);
            }
        }
        assertTrue(
                stale.isEmpty(),
                "docs/cli/ is stale (" + String.join(", ", stale) + "): regenerate it with " + REGENERATE);
    }

    private static TreeSet<String> names(Path dir, String prefix) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.map(p -> p.getFileName().toString())
                        .filter(n ->
                                n.endsWith(".md") && (n.equals(prefix) || n.startsWith(prefix.replace(".md", "-"))))
                        .forEach(names::add);
            }
        }
        return names;
    }

    @Test
    void rubisClientReferenceIsCurrent() throws IOException {
        assertCurrent("rubis-client.md");
    }

    @Test
    void rubisAnalysisReferenceIsCurrent() throws IOException {
        assertCurrent("rubis-analysis.md");
    }

    @Test
    void rubisServerReferenceIsCurrent() throws IOException {
        assertCurrent("rubis-server.md");
    }

    @Test
    void indexIsCurrent() throws IOException {
        assertCurrent("README.md");
    }

    /** Every command of the programs has its page, and the index links every page. */
    @Test
    void everyCommandHasAPageLinkedFromTheIndex() throws IOException {
        written();
        String index = Files.readString(generated.resolve("README.md"));
        for (String name : names(generated, "rubis-client.md")) {
            assertTrue(index.contains("(" + name + ")"), name);
        }
        assertTrue(Files.readString(generated.resolve("rubis-client-run.md")).contains("`--users=N`"));
        assertTrue(Files.exists(generated.resolve("rubis-client-bench-rate.md")));
    }
}
