package org.rubis.client.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjLongConsumer;
import org.rubis.analysis.io.CsvStream;
import org.rubis.client.report.TimesTable;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;

/**
 * The wire's per-request response times (wire.csv, matched lines) put back on the client's requests
 * (requests.csv: phase, state, error), for publishing wire-derived results. A request with no wire
 * time (a failed connect, a client-only line) keeps the client's time, so counts and errors stay the run's.
 */
final class WireTimes {

    private WireTimes() {}

    /** For each matched request of wire.csv with a response on the wire: "connection_id send_epoch_ns" and the wire response time. */
    static void forEachMatched(Path runDir, ObjLongConsumer<String> action) {
        new CsvStream(runDir.resolve(RunFiles.WIRE_CSV))
                .forEach(List.of("connection_id", "client_send_epoch_ns", "wire_response_ns", "match"), row -> {
                    String wire = row.get("wire_response_ns");
                    if ("matched".equals(row.get("match")) && !wire.isEmpty()) {
                        action.accept(
                                row.get("connection_id") + " " + row.get("client_send_epoch_ns"), Long.parseLong(wire));
                    }
                });
    }

    /** The response-time table (summary.json's shape) of the wire's times. */
    static ObjectNode table(Path runDir) {
        Map<String, Long> wire = new HashMap<>();
        forEachMatched(runDir, wire::put);
        TimesTable t = new TimesTable();
        new CsvStream(RunFiles.requests(runDir))
                .forEach(List.of("state", "phase", "send_epoch_ns", "response_ns", "connection_id", "error"), row -> {
                    Long ns = wire.get(row.get("connection_id") + " " + row.get("send_epoch_ns"));
                    Phase phase = Phase.parse(row.get("phase"));
                    if (phase != null) {
                        t.add(
                                phase,
                                Interaction.byLabel(row.get("state")),
                                ns != null ? ns : row.getLong("response_ns"),
                                !row.get("error").isEmpty());
                    }
                });
        return t.toJson();
    }
}
