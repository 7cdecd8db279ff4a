package org.rubis.lab.reproduce;

/** Whether a finding's effect showed up in our runs: the report's one-word answer, always followed by why. */
public enum Verdict {
    /** The effect has the published shape (direction and ordering, not the published magnitude). */
    REPRODUCED("reproduced"),
    /** The runs completed but the effect did not have the published shape. */
    NOT_REPRODUCED("not reproduced"),
    /** Not run: the experiment needs something this setup lacks (the embedded server, the capture privilege). */
    SKIPPED("skipped"),
    /** A run failed (no summary, or too few requests to judge). */
    FAILED("failed");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** REPRODUCED when {@code holds}, else NOT_REPRODUCED. */
    public static Verdict of(boolean holds) {
        return holds ? REPRODUCED : NOT_REPRODUCED;
    }
}
