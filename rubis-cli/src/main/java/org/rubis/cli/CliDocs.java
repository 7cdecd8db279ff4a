package org.rubis.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.rubis.analysis.cli.AnalysisMain;
import org.rubis.format.cli.CliReference;
import org.rubis.format.io.AtomicFile;
import org.rubis.server.ServerMain;
import picocli.CommandLine;

/**
 * Writes docs/cli/, the command-line reference of the three programs ({@link CliReference}), from their own command
 * lines. {@code mvn -B -q -Pcli-docs -DskipTests package} runs it on the repository's docs/cli/; the tests compare
 * what it writes with the checked-in pages.
 */
public final class CliDocs {

    private CliDocs() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: CliDocs DIR (the repository's docs/cli)");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int n = write(dir);
        System.out.println("docs/cli: " + n + " pages written to " + dir);
    }

    /** The three programs' roots, by the launcher that starts each. */
    public static Map<String, CommandLine> programs() {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        Map<String, CommandLine> programs = new LinkedHashMap<>();
        programs.put("bin/rubis-client", RubisClientMain.commandLine(none, none));
        programs.put("bin/rubis-analysis", AnalysisMain.commandLine(none, none));
        programs.put("bin/rubis-server", ServerMain.commandLine());
        return programs;
    }

    /** Every page by file name: the index, then each program's pages. */
    public static Map<String, String> pages() {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("README.md", CliReference.index(programs()));
        programs().forEach((launcher, root) -> pages.putAll(CliReference.pages(root, launcher)));
        return pages;
    }

    /** Writes every page into {@code dir}, deleting the pages of commands that no longer exist; returns the count. */
    public static int write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> pages = pages();
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p :
                    old.filter(p -> p.getFileName().toString().endsWith(".md")).toList()) {
                if (!pages.containsKey(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
        for (var e : pages.entrySet()) {
            AtomicFile.writeString(dir.resolve(e.getKey()), e.getValue());
        }
        return pages.size();
    }
}
