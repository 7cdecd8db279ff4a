package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.text.SummaryLines;

/**
 * The embedded server's ground truth (its server/stats.json, copied as it is), when the run had one. Its counts are
 * the emulated users' (like the client's own); the reference probe's requests and connection, counted apart by the
 * server, are printed apart so the two sides compare like with like.
 */
final class ServerPart implements SummaryPart {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    ServerPart(Path dir) {
        this.dir = dir;
    }

    @Override
    public void json(ObjectNode root) {
        Path serverStats = RunFiles.serverStats(dir);
        if (Files.isRegularFile(serverStats)) {
            try {
                root.set("server", JSON.readTree(serverStats.toFile()));
            } catch (IOException e) {
                root.put("server", "unreadable: " + e.getMessage());
            }
        }
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        if (s.server() != null) {
            line(b, "server ground truth", SummaryLines.serverTruth(s.server()));
        }
    }
}
