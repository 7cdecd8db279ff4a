package org.rubis.client.report;

import java.io.IOException;
import java.nio.file.Path;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;

/**
 * Writes a run's summary.json and summary.txt, each whole or not at all ({@link AtomicFile}): a kill leaves no torn
 * summary. When the heap is exhausted, the essentials alone, made of plain strings.
 */
public final class SummaryWriter {

    private SummaryWriter() {}

    /** summary.json, then summary.txt. */
    static void write(Path dir, String json, String text) throws IOException {
        AtomicFile.writeString(RunFiles.summaryJson(dir), json);
        AtomicFile.writeString(RunFiles.summaryText(dir), text);
    }

    /**
     * The essentials of an invalid run, written with plain strings when the heap is exhausted.
     *
     * @param health the run's monitor, for what the heap went to (GC totals), or null when it was not started
     */
    public static void writeMinimal(
            Path dir,
            String reason,
            long seed,
            String backend,
            int usersStarted,
            long logged,
            long lost,
            ClientHealth health) {
        String r = reason.replace("\\", "/").replace("\"", "'");
        String gc = health == null ? "" : health.gcMinimalJson();
        String json = "{\n  \"status\": \"" + RunStatus.INVALID.label()
                + "\",\n  \"partial\": true,\n  \"stop_reason\": \"" + r + "\",\n  \"seed\": " + seed
                + ",\n  \"backend\": \"" + backend + "\",\n  \"users_started\": " + usersStarted + ",\n  \"requests\": "
                + logged
                + ",\n  \"requests_logged\": " + logged + ",\n  \"records_lost\": " + lost
                + ",\n  \"errors\": -1,\n  \"sessions_completed\": -1"
                + ",\n  \"jvm\": {\"max_heap_bytes\": " + Runtime.getRuntime().maxMemory()
                + "},\n  \"client_health\": {\"saturated\": true, "
                + "\"verdict\": \"INVALID: the client ran out of heap\"" + gc + "}\n}\n";
        try {
            AtomicFile.writeString(RunFiles.summaryJson(dir), json);
            AtomicFile.writeString(
                    RunFiles.summaryText(dir),
                    "RUBiS client run summary\nstatus: " + RunStatus.INVALID.label() + " (" + r + ")\nrequests logged: "
                            + logged + "\n");
        } catch (IOException e) {
            System.err.println("error: cannot write " + RunFiles.summaryJson(dir) + ": " + e.getMessage());
        }
    }
}
