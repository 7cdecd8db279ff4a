package org.rubis.format.schema;

/**
 * What a verdict can name: the client, the host or the server as what limited the run, or the replies themselves when
 * too many were errors. Here, beside the records, because it crosses the file: summary.json's {@code
 * client_health.causes}, an interval's, and {@code wire_check.accuracy.cause} are these names, read back by the
 * assertions, the merge and the report as this enum rather than as strings.
 */
public enum Cause {
    CLIENT,
    HOST,
    SERVER,
    ERRORS
}
