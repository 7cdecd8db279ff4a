package org.rubis.client.log;

/**
 * One request as the log and statistics see it. Created after the response is complete (off the
 * timing path) and handed to the writer thread.
 */
public record RequestRecord(
        long sessionId,
        String user,
        int requestIndex,
        String state,
        String path,
        String phase,
        long intendedSendEpochNs,
        long sendEpochNs,
        long ttfbNs,
        long responseNs,
        long bytes,
        int status,
        String error,
        String connectionId,
        boolean newConnection,
        String backend,
        int images,
        long imageBytes,
        int retries) {


    /** Actual minus intended send instant. */
    public long latenessNs() {
        return sendEpochNs - intendedSendEpochNs;
    }

    public boolean isError() {
        return !error.isEmpty();
    }

    void appendCsv(CsvLine b) {
        b.append(sessionId).comma().append(user).comma().append(requestIndex).comma().append(state).comma();
        b.field(path);
        b.comma().append(phase).comma().append(intendedSendEpochNs).comma().append(sendEpochNs).comma()
         .append(ttfbNs).comma().append(responseNs).comma().append(bytes).comma().append(status).comma()
         .append(error).comma().append(connectionId).comma().append(newConnection).comma().append(backend).comma()
         .append(images).comma().append(imageBytes).comma().append(retries).newline();
    }
}
