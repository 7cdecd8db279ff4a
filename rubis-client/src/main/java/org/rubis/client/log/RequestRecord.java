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

    void appendCsv(StringBuilder b) {
        b.append(sessionId).append(',').append(user).append(',').append(requestIndex).append(',').append(state).append(',');
        Csv.append(b, path);
        b.append(',').append(phase).append(',').append(intendedSendEpochNs).append(',').append(sendEpochNs).append(',')
         .append(ttfbNs).append(',').append(responseNs).append(',').append(bytes).append(',').append(status).append(',')
         .append(error).append(',').append(connectionId).append(',').append(newConnection).append(',').append(backend).append(',')
         .append(images).append(',').append(imageBytes).append(',').append(retries).append('\n');
    }
}
