package org.rubis.analysis.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;

/**
 * The run-directory readers fuzzed: whatever a run directory's files hold, the analysis either
 * succeeds (skipping and counting what it cannot read) or throws {@link AnalysisException} with a
 * one-line message; nothing else may escape. Replayed from {@code RunDirectoryFuzzTestInputs/}
 * in the normal suite; {@code JAZZER_FUZZ=1} fuzzes (docs/FAULTS.md).
 */
class RunDirectoryFuzzTest {

    private static final String REQUESTS_HEADER =
            "session_id,user,request_index,state,path,phase,intended_send_epoch_ns,send_epoch_ns,"
                    + "ttfb_ns,response_ns,bytes,status,error,connection_id,new_connection,backend,images,image_bytes\n";
    private static final String SESSIONS_HEADER =
            "session_id,emulated_user,user,intended_start_epoch_ns,start_epoch_ns,end_epoch_ns,requests,errors,end_reason\n";
    private static final String SERVER_HEADER =
            "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,bytes,path,fault\n";

    private static final Path DIR = tempDir();

    private static Path tempDir() {
        try {
            Path d = Files.createTempDirectory("rubis-fuzz-run");
            Files.createDirectories(d.resolve("server"));
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each file gets the right header (so the fuzzer reaches the rows) unless the input says otherwise. */
    @FuzzTest(maxDuration = "90s")
    void runDirectory(FuzzedDataProvider in) throws IOException {
        boolean headers = in.consumeBoolean();
        String requests = in.consumeString(2000);
        String sessions = in.consumeString(1000);
        String server = in.consumeString(1000);
        String gc = in.consumeRemainingAsString();
        Files.writeString(
                DIR.resolve("requests.csv"), (headers ? REQUESTS_HEADER : "") + requests, StandardCharsets.UTF_8);
        Files.writeString(
                DIR.resolve("sessions.csv"), (headers ? SESSIONS_HEADER : "") + sessions, StandardCharsets.UTF_8);
        Files.writeString(
                DIR.resolve("server/requests.csv"), (headers ? SERVER_HEADER : "") + server, StandardCharsets.UTF_8);
        Files.writeString(
                DIR.resolve("client-gc.csv"),
                (headers ? "end_epoch_ms,duration_ms,gc,action,cause\n" : "") + gc,
                StandardCharsets.UTF_8);
        try {
            RunAnalysis a = RunAnalysis.of(new RunDirectory(DIR));
            a.throughput();
            a.little();
        } catch (AnalysisException e) {
            if (e.getMessage() == null || e.getMessage().contains("\n")) {
                throw new AssertionError("not a one-line message: " + e.getMessage(), e);
            }
        }
    }
}
