package org.rubis.client.log;

import org.rubis.format.run.SessionEnd;

/** One session: when it was meant to start, when it did, how long it ran and how it ended. */
public record SessionRecord(
        long sessionId,
        int emulatedUser,
        String user,
        long intendedStartEpochNs,
        long startEpochNs,
        long endEpochNs,
        int requests,
        int errors,
        SessionEnd endReason) {

    void appendCsv(CsvLine b) {
        b.append(sessionId)
                .comma()
                .append(emulatedUser)
                .comma()
                .append(user)
                .comma()
                .append(intendedStartEpochNs)
                .comma()
                .append(startEpochNs)
                .comma()
                .append(endEpochNs)
                .comma()
                .append(requests)
                .comma()
                .append(errors)
                .comma()
                .append(endReason.label())
                .newline();
    }
}
