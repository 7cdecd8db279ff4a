package org.rubis.client.report;

import org.rubis.format.run.RunStatus;

/**
 * The exit statuses of {@code rubis-client.jar}, in one place so that a script can tell a mistyped command
 * line from a run that measured nothing: every run status has its own documented code
 * ({@link RunStatus#exitCode()}), and a usage or configuration error uses {@link #USAGE} (64, sysexits'
 * EX_USAGE), which no run status uses. docs/RUNNING.md ("Exit status") documents this table.
 */
public final class ExitStatus {

    /** The run is {@code complete} (or a command other than {@code run} succeeded). */
    public static final int OK = RunStatus.COMPLETE.exitCode();
    /**
     * {@code run --shards}: the shards' run directories could not be merged (one has no summary.json), or a shard was
     * not ready to start in time (nothing was sent).
     */
    public static final int NOT_MERGED = 1;
    /** The run ended {@code invalid}, {@code failed} or {@code target-died}: its figures are not a measurement. */
    public static final int NOT_A_MEASUREMENT = RunStatus.INVALID.exitCode();
    /** A bug in rubis-client (an unexpected exception; its stack trace follows the one-line error). */
    public static final int BUG = 3;
    /**
     * The command line or the configuration is wrong: unparsable option or value, a value out of range, a bad
     * properties or input file, an unknown {@code -D} key, no subcommand. Nothing was sent.
     */
    public static final int USAGE = 64;
    /**
     * {@code validate --target URL} and {@code run --preflight}: the configuration loads, but the target does not fit it (a page the table uses
     * fails, its database has fewer users, items, regions or categories than configured): sysexits' EX_UNAVAILABLE.
     */
    public static final int TARGET_DOES_NOT_FIT = 69;
    /** The run is {@code partial}: stopped early (Ctrl-C, SIGTERM, ...): 128 + SIGINT, the shell's convention. */
    public static final int PARTIAL = RunStatus.PARTIAL.exitCode();

    /**
     * The run is {@code complete} but an assertion ({@code run --assert}) failed, or its verdict names the client, so
     * its figures cannot be asserted, or the ERRORS, so its response times cannot: k6's code for failed thresholds. A run that is not {@code complete} keeps its
     * own status (its assertions fail too, in summary.json).
     */
    public static final int ASSERTION_FAILED = 99;

    private ExitStatus() {}
}
