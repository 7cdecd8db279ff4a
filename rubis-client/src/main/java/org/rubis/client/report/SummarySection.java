package org.rubis.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.rubis.format.stats.WireAccuracy;

/**
 * A part of the summary contributed by a run hook (the wire check), built after the logs are closed:
 * one object in summary.json under {@link #key}, a block of summary.txt, and optionally the run's
 * accuracy verdict and the response times to publish instead of the client's.
 */
public interface SummarySection {

    /** The key of the section in summary.json. */
    String key();

    JsonNode json();

    /** The block appended to summary.txt (ends with a newline). */
    String text();

    /**
     * The client-minus-wire error this section measured, judged by the one accuracy rule, for the run's
     * verdict ({@link Verdict}), or null when it measured none or its measurement is incomplete.
     */
    default WireAccuracy accuracy() {
        return null;
    }

    /** True when this section's capture ran and lost packets: its accuracy is then not vouched for. */
    default boolean captureIncomplete() {
        return false;
    }

    /** The run's accuracy verdict when this section measured it, else null. */
    default String accuracyVerdict() {
        return null;
    }

    /**
     * Response times to publish in place of the client's (same shape as summary.json's
     * {@code response_time_ms}), or null to keep the client's.
     */
    default JsonNode publishedResponseTimes() {
        return null;
    }

    /**
     * Which clock {@link #publishedResponseTimes} come from, e.g. "wire (packet capture)"; without published times of
     * its own, which clock the run's own response times came from (the kernel backend's stamps), or null.
     */
    default String publishedClock() {
        return null;
    }
}
