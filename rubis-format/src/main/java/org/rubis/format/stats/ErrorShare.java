package org.rubis.format.stats;

import java.util.Locale;
import java.util.Map;
import org.rubis.format.run.ErrorClass;

/**
 * The rule that names a run's errors in its verdict, in one place for a run's summary and a merged one: a run whose
 * replies were mostly errors measured failures, not the service (131 of 132 replies {@code http-503} once read OK).
 * More than {@link #LIMIT} of the run phase's requests in error is too many: an error reply is usually fast (a 503,
 * a refused connect), so beyond one in a hundred the response times no longer describe the service. k6's and
 * Gatling's documented examples set their error thresholds at the same 1 %.
 *
 * <p>Pages that report the target's stored state ({@link ErrorClass#TARGET_STATE}: a nickname an earlier run took)
 * are errors of the run's walk but no failure of the client, its backend or the server: they are left out of the
 * share judged and named apart ({@link #targetStateText()}).
 *
 * @param requests    the run phase's requests
 * @param errors      how many of them were errors, target-state pages included
 * @param byClass     the run's errors by class (summary.json's {@code errors_by_class}), for the words
 * @param targetState how many of the run phase's errors were target-state pages
 */
public record ErrorShare(long requests, long errors, Map<String, Long> byClass, long targetState) {

    /** The largest share of the run phase's requests in error that the verdict lets pass. */
    public static final double LIMIT = 0.01;

    /** No request judged: nothing to name. */
    public static final ErrorShare NONE = new ErrorShare(0, 0, Map.of(), 0);

    /** Whether the errors are over the limit, target-state pages left out. */
    public boolean high() {
        return requests > 0 && judged() > LIMIT * requests;
    }

    /** The errors the rule judges: all but the target-state pages. */
    public long judged() {
        return errors - targetState;
    }

    /**
     * "12 run-phase pages reported the target's stored state (target-state: ...)", or "" when none: what the verdict
     * says of them instead of blaming anyone.
     */
    public String targetStateText() {
        if (targetState == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "%d run-phase pages reported the target's stored state (%s: a nickname already taken, an item no"
                        + " longer for sale or open for bids, written before this run), counted apart: no fault of the"
                        + " client, its backend or the server",
                targetState,
                ErrorClass.TARGET_STATE.label());
    }

    /** "131 of 132 run-phase requests were errors (99.2 %, over the 1 % limit; http-503 131): ...". */
    public String text() {
        StringBuilder classes = new StringBuilder();
        byClass.entrySet().stream()
                .filter(e -> !e.getKey().equals(ErrorClass.TARGET_STATE.label()))
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
                judged(),
                requests,
                100.0 * judged() / requests,
                100 * LIMIT,
                classes.isEmpty() ? "" : "; " + classes);
    }
}
