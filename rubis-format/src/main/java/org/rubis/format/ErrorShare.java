package org.rubis.format;

import java.util.Locale;
import java.util.Map;

/**
 * The rule that names a run's errors in its verdict, in one place for a run's summary and a merged one: a run whose
 * replies were mostly errors measured failures, not the service (131 of 132 replies {@code http-503} once read OK).
 * More than {@link #LIMIT} of the run phase's requests in error is too many: an error reply is usually fast (a 503,
 * a refused connect), so beyond one in a hundred the response times no longer describe the service. k6's and
 * Gatling's documented examples set their error thresholds at the same 1 %.
 *
 * @param requests the run phase's requests
 * @param errors   how many of them were errors
 * @param byClass  the run's errors by class (summary.json's {@code errors_by_class}), for the words
 */
public record ErrorShare(long requests, long errors, Map<String, Long> byClass) {

    /** The largest share of the run phase's requests in error that the verdict lets pass. */
    public static final double LIMIT = 0.01;

    /** No request judged: nothing to name. */
    public static final ErrorShare NONE = new ErrorShare(0, 0, Map.of());

    /** Whether the errors are over the limit. */
    public boolean high() {
        return requests > 0 && errors > LIMIT * requests;
    }

    /** "131 of 132 run-phase requests were errors (99.2 %, over the 1 % limit; http-503 131): ...". */
    public String text() {
        StringBuilder classes = new StringBuilder();
        byClass.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(3)
                .forEach(e -> classes.append(classes.isEmpty() ? "" : ", ")
                        .append(e.getKey())
                        .append(' ')
                        .append(e.getValue()));
        return String.format(
                Locale.ROOT,
                "%d of %d run-phase requests were errors (%.1f %%, over the %.0f %% limit%s): the response times "
                        + "describe failures as much as service",
                errors,
                requests,
                100.0 * errors / requests,
                100 * LIMIT,
                classes.isEmpty() ? "" : "; " + classes);
    }
}
