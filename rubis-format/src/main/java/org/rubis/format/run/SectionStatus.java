package org.rubis.format.run;

/**
 * How a measurement section of summary.json went ({@code wire_check.status}, {@code reference_probe.status}): a
 * command that compares runs tells a run whose wire check did not run from one whose check is incomplete.
 */
public enum SectionStatus {
    /** Every request was checked. */
    COMPLETE("complete"),
    /** The capture dropped packets or has holes: some requests were not checked. */
    INCOMPLETE("incomplete"),
    /** It did not run (no privilege, no libpcap, a failure); the section says why. */
    NOT_RUN("not run");

    private final String label;

    SectionStatus(String label) {
        this.label = label;
    }

    /** The value in summary.json. */
    public String label() {
        return label;
    }

    /** The status a summary names, or null when the value is none. */
    public static SectionStatus parse(String label) {
        for (SectionStatus s : values()) {
            if (s.label.equals(label)) {
                return s;
            }
        }
        return null;
    }
}
