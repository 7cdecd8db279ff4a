package org.rubis.client.log;

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
        String endReason) {


    void appendCsv(StringBuilder b) {
        b.append(sessionId).append(',').append(emulatedUser).append(',').append(user).append(',').append(intendedStartEpochNs).append(',')
         .append(startEpochNs).append(',').append(endEpochNs).append(',').append(requests).append(',').append(errors).append(',')
         .append(endReason).append('\n');
    }
}
