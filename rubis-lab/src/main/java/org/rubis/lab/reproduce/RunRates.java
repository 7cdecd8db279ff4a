package org.rubis.lab.reproduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.SessionEnd;

/**
 * Request and session rates of one run's measured phase, from its own logs: requests the client sent
 * (what it offered), requests answered without error (what the server achieved), sessions started.
 */
record RunRates(double seconds, long sent, long answered, long sessions, long sessionRequests) {

    double offeredPerSecond() {
        return sent / seconds;
    }

    double achievedPerSecond() {
        return answered / seconds;
    }

    /** Mean requests per session over all sessions of the run. */
    double requestsPerSession() {
        return sessions == 0 ? 0 : (double) sessionRequests / sessions;
    }

    static RunRates of(ClientRun r) {
        double seconds = r.analysis().window().seconds();
        long[] c = new long[2];
        new CsvStream(RunFiles.requests(r.dir())).forEach(List.of("phase", "error"), row -> {
            if (Phase.parse(row.get("phase")) == Phase.RUN) {
                c[0]++;
                if (row.get("error").isEmpty()) {
                    c[1]++;
                }
            }
        });
        long[] s = new long[2];
        Path sessions = RunFiles.sessions(r.dir());
        if (Files.isRegularFile(sessions)) {
            new CsvStream(sessions).forEach(List.of("requests", "end_reason"), row -> {
                if (SessionEnd.parse(row.get("end_reason")) != SessionEnd.DROPPED) {
                    s[0]++;
                    s[1] += row.getLong("requests");
                }
            });
        }
        return new RunRates(Math.max(1e-3, seconds), c[0], c[1], s[0], s[1]);
    }
}
