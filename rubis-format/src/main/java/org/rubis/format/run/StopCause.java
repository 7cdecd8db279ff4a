package org.rubis.format.run;

/**
 * Why a run stopped: the kind the client decides the run's {@link RunStatus} by, and the words
 * summary.json's {@code stop_reason} gives a person ({@code complete} for a run that reached its
 * end). The words are free text, written for people and never parsed: a program asks the kind.
 *
 * @param kind   what happened
 * @param reason the stop reason in words
 */
public record StopCause(Kind kind, String reason) {

    /** The cause of a run that reached the end of its planned phases. */
    public static final StopCause END = new StopCause(Kind.END, "complete");

    /** What stopped a run; {@link #invalidates} says whether its figures still measure the target. */
    public enum Kind {
        /** The run reached the end of its planned phases. */
        END(false),
        /** It was asked to stop: Ctrl-C, SIGTERM, an interrupted wait. Its figures cover the time it ran. */
        INTERRUPTED(false),
        /**
         * A write to the run directory failed (its disk is full): the logs stop at the last whole line written and the
         * figures cover exactly those lines, up to the stop.
         */
        DISK_FULL(false),
        /** Something the run opened failed to close at its end; the figures stand. */
        CLEANUP_FAILED(false),
        /** The target could not be reached from the first requests on. */
        TARGET_UNREACHABLE(true),
        /** The target answered, then stopped accepting connections mid-run. */
        TARGET_DIED(true),
        /** The client's heap ran out. */
        OUT_OF_MEMORY(true),
        /** A part of the client failed: a user's thread, a session's start, a run hook. */
        CLIENT_FAILED(true),
        /** The process was ready only after the end of its run (a start instant missed): nothing was measured. */
        LATE_START(true);

        private final boolean invalidates;

        Kind(boolean invalidates) {
            this.invalidates = invalidates;
        }

        /** Whether a stop of this kind means the run did not measure what it claims, whenever it comes. */
        public boolean invalidates() {
            return invalidates;
        }
    }
}
