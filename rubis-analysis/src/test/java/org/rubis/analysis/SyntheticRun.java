package org.rubis.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.format.run.Columns;

/** Writes run directories with known contents, in the exact format rubis-client writes. */
final class SyntheticRun {

    private final StringBuilder requests = new StringBuilder(Columns.header(Columns.REQUESTS) + "\n");
    private final StringBuilder sessions = new StringBuilder(
            "session_id,emulated_user,user,intended_start_epoch_ns,start_epoch_ns,end_epoch_ns,requests,errors,end_reason\n");
    static final long T0 = 1_700_000_000_000_000_000L;

    /** One request: times in ns relative to T0. */
    SyntheticRun request(
            long session,
            int index,
            String state,
            String path,
            String phase,
            long intended,
            long send,
            long response,
            String error,
            String connection,
            boolean newConnection) {
        requests.append(session)
                .append(",user1,")
                .append(index)
                .append(',')
                .append(state)
                .append(',')
                .append(path)
                .append(',')
                .append(phase)
                .append(',')
                .append(T0 + intended)
                .append(',')
                .append(T0 + send)
                .append(',')
                .append(response / 2)
                .append(',')
                .append(response)
                .append(",100,200,")
                .append(error)
                .append(',')
                .append(connection)
                .append(',')
                .append(newConnection)
                .append(",dedicated,0,0,0,,")
                .append(connection)
                .append('\n');
        return this;
    }

    SyntheticRun session(long id, long start, long end, int requestCount, String reason) {
        sessions.append(id)
                .append(",-1,user1,")
                .append(T0 + start)
                .append(',')
                .append(T0 + start)
                .append(',')
                .append(T0 + end)
                .append(',')
                .append(requestCount)
                .append(",0,")
                .append(reason)
                .append('\n');
        return this;
    }

    Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("requests.csv"), requests);
        Files.writeString(dir.resolve("sessions.csv"), sessions);
        return dir;
    }
}
