package org.rubis.client.log;

import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Columns;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;

/**
 * One request as the log and statistics see it. Created after the response is complete (off the
 * timing path) and handed to the writer thread. The state, phase and error are typed until the
 * line is written: the statistics count them without reading a label back.
 *
 * @param error      the error class, null for a request without an error ({@link ErrorClass#HTTP_STATUS}: the
 *                   status is in {@code status})
 * @param imageError the error is one of the page's images' (the page itself arrived): {@code image-<class>}
 * @param interval   the run phase's interval of the send instant (a load profile's, 0-based; without a profile the run
 *                   phase is interval 0), or -1 in the ramps: written empty
 * @param connectionId the run's serial of the connection that carried the request ("" for none): one connection for
 *                   the whole run, whereas its address:port may name several (the kernel reuses ephemeral ports)
 * @param localAddress the local address:port of that connection ("" when unknown): what the server's log and the
 *                   packet capture name the connection by, joined with the time of each request
 * @param kernel     the kernel backend's marks, null on the other backends (their columns written empty)
 */
public record RequestRecord(
        long sessionId,
        String user,
        int requestIndex,
        Interaction state,
        String path,
        Phase phase,
        long intendedSendEpochNs,
        long sendEpochNs,
        long ttfbNs,
        long responseNs,
        long bytes,
        int status,
        ErrorClass error,
        boolean imageError,
        String connectionId,
        boolean newConnection,
        String backend,
        int images,
        long imageBytes,
        int retries,
        int interval,
        String localAddress,
        KernelMarks kernel) {

    /** Actual minus intended send instant. */
    public long latenessNs() {
        return sendEpochNs - intendedSendEpochNs;
    }

    public boolean isError() {
        return error != null;
    }

    /** The error column's value ("" without an error). */
    public String errorLabel() {
        return ErrorClass.label(error, imageError, status);
    }

    void appendCsv(CsvLine b) {
        appendCsv(b, false);
    }

    /** The line, with the kernel backend's columns when {@code kernelColumns} ({@link Columns#REQUESTS_KERNEL}). */
    void appendCsv(CsvLine b, boolean kernelColumns) {
        b.append(sessionId)
                .comma()
                .append(user)
                .comma()
                .append(requestIndex)
                .comma()
                .append(state.label())
                .comma();
        b.field(path);
        b.comma()
                .append(phase.label())
                .comma()
                .append(intendedSendEpochNs)
                .comma()
                .append(sendEpochNs)
                .comma()
                .append(ttfbNs)
                .comma()
                .append(responseNs)
                .comma()
                .append(bytes)
                .comma()
                .append(status)
                .comma();
        appendError(b);
        b.comma()
                .append(connectionId)
                .comma()
                .append(newConnection)
                .comma()
                .append(backend)
                .comma()
                .append(images)
                .comma()
                .append(imageBytes)
                .comma()
                .append(retries)
                .comma();
        if (interval >= 0) {
            b.append(interval);
        }
        b.comma().append(localAddress);
        if (kernelColumns) {
            appendKernel(b);
        }
        b.newline();
    }

    /** The kernel backend's columns (docs/RUN-DIRECTORY.md), empty where the request has no marks or stamps. */
    private void appendKernel(CsvLine b) {
        KernelMarks k = kernel;
        b.comma();
        if (k == null) {
            b.comma().comma().comma().comma().comma().comma().comma();
            return;
        }
        b.append(k.clock()).comma();
        if (k.kernelPublished()) {
            b.append(k.userSendEpochNs()).comma().append(k.userTtfbNs()).comma().append(k.userResponseNs());
        } else {
            b.comma().comma();
        }
        stamp(b.comma(), k.txFirstEpochNs());
        stamp(b.comma(), k.txLastEpochNs());
        stamp(b.comma(), k.rxFirstEpochNs());
        stamp(b.comma(), k.rxLastEpochNs());
    }

    private static void stamp(CsvLine b, long epochNs) {
        if (epochNs != 0) {
            b.append(epochNs);
        }
    }

    /** {@link #errorLabel()} written in place: an HTTP status's digits go into the line with no string made. */
    private void appendError(CsvLine b) {
        if (error == null) {
            return;
        }
        if (imageError) {
            b.append(ErrorClass.IMAGE_PREFIX);
        }
        if (error == ErrorClass.HTTP_STATUS) {
            b.append(ErrorClass.HTTP_PREFIX).append(status);
        } else {
            b.append(error.label());
        }
    }
}
