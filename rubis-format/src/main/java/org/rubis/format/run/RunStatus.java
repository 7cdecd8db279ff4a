package org.rubis.format.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a run ended, as summary.json's {@code status} says it, and what that means to a script: the
 * exit status of {@code rubis-client.jar run} (docs/RUNNING.md, "Exit status"). The client decides a run's
 * status once, at its end; a merged run's (rubis-analysis merge, {@code run --shards}) is its
 * shards' combined by {@link #worst}, so that a merged run never hides a shard that measured
 * nothing behind a milder word.
 *
 * <p>Declared from the mildest to the worst: a merged run takes the worst of its shards' statuses.
 * The order follows the rule that gives one run its status, where a dead target outranks every
 * other cause, a run made invalid (out of memory, an unreachable target, a failure of the client)
 * outranks one in which no request succeeded, and any of these outranks a run stopped early.
 */
public enum RunStatus {
    /** The run ran its planned phases to their end and some request succeeded: a measurement. */
    COMPLETE("complete", 0),
    /** Stopped early (Ctrl-C, SIGTERM, a shard stopped): a measurement of the time it ran. 128 + SIGINT. */
    PARTIAL("partial", 130),
    /** No request succeeded, or none was sent: nothing was measured. */
    FAILED("failed", 2),
    /** The run did not measure what it claims (out of memory, unreachable target, a failure inside the client). */
    INVALID("invalid", 2),
    /** The target answered, then stopped accepting connections mid-run. */
    TARGET_DIED("target-died", 2);

    private final String label;
    private final int exitCode;

    RunStatus(String label, int exitCode) {
        this.label = label;
        this.exitCode = exitCode;
    }

    /** The value of summary.json's {@code status}. */
    @JsonValue
    public String label() {
        return label;
    }

    /** The exit status of {@code rubis-client.jar run} for a run that ended so. */
    public int exitCode() {
        return exitCode;
    }

    /** Whether the run's figures are a measurement (of all its planned time, or of the part it ran). */
    public boolean measured() {
        return this == COMPLETE || this == PARTIAL;
    }

    /** The worse of two statuses (the later in declaration order): how shard statuses combine. */
    public RunStatus worst(RunStatus other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** The status a summary.json names, or null when {@code label} is none (absent, or a newer client's word). */
    @JsonCreator
    public static RunStatus parse(String label) {
        if (label == null) {
            return null;
        }
        for (RunStatus s : values()) {
            if (s.label.equals(label)) {
                return s;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return label;
    }
}
