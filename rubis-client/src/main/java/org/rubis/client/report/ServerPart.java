package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.format.RunFiles;

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
    public void text(JsonNode root, StringBuilder b) {
        if (root.has("server") && root.get("server").isObject()) {
            JsonNode s = root.get("server");
            long probe = s.path("probe_requests").asLong();
            line(
                    b,
                    "server ground truth",
                    s.path("requests").asLong() + " requests, "
                            + s.path("connections_accepted").asLong()
                            + " connections accepted, at most "
                            + s.path("max_concurrent_connections").asLong() + " at once, "
                            + s.path("requests_per_connection").path("mean").asText() + " requests per connection (max "
                            + s.path("requests_per_connection").path("max").asText() + ")"
                            + (probe == 0
                                    ? ""
                                    : "; apart: the reference probe's " + probe + " requests on "
                                            + s.path("probe_connections").asLong() + " connection(s)"));
        }
    }
}
