package org.rubis.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The PromQL queries docs/LIVE.md shows, as a user would copy them: the indented lines of its section "PromQL", a
 * query per line unless the next is indented further (its continuation), comments ({@code #}) and trailing ones
 * dropped. LivePrometheusTest runs each on a real Prometheus.
 */
final class LiveDocQueries {

    private LiveDocQueries() {}

    /** docs/LIVE.md under the repository's root (from the e2e module's directory or the root). */
    static Path doc() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/LIVE.md"))) {
                return p.resolve("docs/LIVE.md");
            }
        }
        throw new IllegalStateException("no docs/LIVE.md above " + here);
    }

    static List<String> read(Path doc) throws IOException {
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        List<String> queries = new ArrayList<>();
        boolean in = false;
        int indent = -1;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                in = line.equals("## PromQL");
                continue;
            }
            if (!in || !line.startsWith("    ") || line.isBlank()) {
                continue;
            }
            String code = line.replaceFirst("\\s+#.*$", "");
            if (code.strip().startsWith("#") || code.isBlank()) {
                continue;
            }
            int lead = code.length() - code.stripLeading().length();
            if (!queries.isEmpty() && lead > indent) {
                queries.set(queries.size() - 1, queries.get(queries.size() - 1) + " " + code.strip());
            } else {
                queries.add(code.strip());
                indent = lead;
            }
        }
        return queries;
    }
}
