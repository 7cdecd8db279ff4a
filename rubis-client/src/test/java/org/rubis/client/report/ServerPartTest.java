package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.SummaryJson;

/** The summary's "server ground truth" line counts the users' requests, with the reference probe's apart. */
class ServerPartTest {

    @TempDir
    Path dir;

    private String line(String stats) throws Exception {
        Files.createDirectories(RunFiles.serverStats(dir).getParent());
        Files.writeString(RunFiles.serverStats(dir), stats);
        ServerPart part = new ServerPart(dir);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        part.json(root);
        StringBuilder b = new StringBuilder();
        part.text(SummaryJson.of(root.put("status", "complete")), b);
        return b.toString();
    }

    @Test
    void theProbesRequestsAreNamedApartFromTheUsers() throws Exception {
        String text = line("{\"requests\": 175, \"probe_requests\": 241, \"probe_connections\": 1,"
                + " \"connections_accepted\": 2, \"max_concurrent_connections\": 2,"
                + " \"requests_per_connection\": {\"mean\": \"87.500\", \"max\": 120}}");
        assertTrue(text.contains("server ground truth:"), text);
        assertTrue(text.contains("175 requests, 2 connections accepted"), text);
        assertTrue(
                text.replaceAll("\\s+", " ").contains("apart: the reference probe's 241 requests on 1 connection(s)"),
                text);
    }

    @Test
    void withoutAProbeTheLineSaysNothingOfIt() throws Exception {
        String text = line("{\"requests\": 175, \"connections_accepted\": 2, \"max_concurrent_connections\": 2,"
                + " \"requests_per_connection\": {\"mean\": \"87.500\", \"max\": 120}}");
        assertFalse(text.contains("probe"), text);
        assertEquals(
                1, text.lines().filter(l -> l.startsWith("server ground truth")).count(), text);
    }
}
