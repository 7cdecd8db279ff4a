package org.rubis.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import org.rubis.analysis.stats.CensoredMean;
import org.rubis.format.stats.LittleBand;

/**
 * Little's law for the run phase, N = X (R + Z), as the ratio N / (X (R + Z)) with the band a steady run stays in:
 * the definition, names and band of the client's stationarity check (rubis-format's {@code Stationarity}, summary.json
 * {@code stationarity}), so the report and the summary never disagree on what the ratio means.
 *
 * <p>Where the figures come from matters more than the arithmetic. The client records every think time it draws in
 * the run phase, including those still running at the end; the logs only show a think time when the next request
 * came. So when summary.json carries the client's ratio, it is used as is ({@link #fromSummary}); otherwise (a killed
 * run, an unreadable or older summary, hybrid arrivals) it is estimated from the logs ({@link #fromLogs}) with the
 * censored think times counted, and labelled so.
 *
 * @param n       the population: the closed run's users, or the mean of active sessions over the run phase
 * @param xRps    the run phase's requests (attempted: a failed request occupied its user too) per second run; in an estimate
 *                from the logs, but those that opened a session (N counts sessions, and no think time precedes those)
 * @param rMs     the run phase's mean response time
 * @param zMs     the mean think time
 * @param ratio   N / (X (R + Z)); NaN when not computable
 * @param se      the ratio's relative standard error on a steady run of this size (0 when unknown)
 * @param source  where N and Z come from, in words
 * @param notJudged why the ratio cannot be judged ({@link LittleBand#notJudgedReason}, the client's rule; or open
 *                arrivals), or null when it can
 */
public record LittleLaw(
        double n, double xRps, double rMs, double zMs, double ratio, double se, String source, String notJudged) {

    /** The client's own figures (summary.json {@code stationarity}): N users started, Z every think drawn. */
    static LittleLaw fromSummary(JsonNode s, double rMs) {
        JsonNode st = s.path("stationarity");
        // The summary's own verdict stands: a phase it did not judge is not judged here either.
        String notJudged = "not-judged".equals(st.path("verdict").asText())
                ? st.path("not_judged_reason").asText("the summary did not judge it")
                : null;
        double n = s.path("users_started").asDouble(s.path("users").asDouble());
        double z = st.path("mean_think_s").asDouble() * 1000;
        double ratio = st.path("little_ratio").asDouble();
        // X as the client's check had it (whole windows of the run phase): N / (ratio (R + Z)), so that the table's
        // N / (X (R + Z)) is the ratio shown, not one of another X
        double x = ratio > 0 && rMs + z > 0 ? n / (ratio * (rMs + z) / 1000) : Double.NaN;
        return new LittleLaw(
                n,
                x,
                rMs,
                z,
                ratio,
                st.path("little_ratio_se").asDouble(0),
                "summary.json (the client's own figures: N = users started, Z = every think time drawn in the run phase, "
                        + "including those still running at its end; X the run phase's whole windows)",
                notJudged);
    }

    /** Open or hybrid arrivals: no fixed population, so no ratio; the client judges such a run by its throughput trend. */
    static LittleLaw notApplicable(String arrivals) {
        return new LittleLaw(
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                0,
                arrivals + " arrivals",
                "no fixed population (" + arrivals
                        + " arrivals): the summary judges the run phase by its throughput trend alone");
    }

    /**
     * An estimate from the logs: N the mean number of active sessions in the run phase, Z the think times within
     * sessions (each censored one by its elapsed part, {@link org.rubis.analysis.stats.CensoredMean}).
     */
    static LittleLaw fromLogs(double n, double xRps, double rMs, CensoredMean z, double runSeconds, long runRequests) {
        double cycle = xRps * (rMs + z.meanMs()) / 1000;
        double ratio = n > 0 && cycle > 0 ? n / cycle : Double.NaN;
        String censored = z.censoredCount() == 0
                ? "none still running at the end"
                : String.format(
                        Locale.ROOT,
                        "%d still running at the end counted by their elapsed part, assuming exponential think times; "
                                + "the mean of the %d finished ones alone, biased low, is %.1f ms",
                        z.censoredCount(),
                        z.finishedCount(),
                        z.plainMeanMs());
        double se = LittleBand.standardErrorExponential(n, runSeconds, rMs / 1000, z.meanMs() / 1000);
        return new LittleLaw(
                n,
                xRps,
                rMs,
                z.meanMs(),
                ratio,
                se,
                "estimated from the logs (no client figures in summary.json): N = mean active sessions in the run phase, "
                        + "X = run-phase requests per second but those that opened a session (no think time before them within it), "
                        + "Z = think times within sessions (" + censored + ")",
                LittleBand.notJudgedReason((int) runSeconds, 1, runRequests, Double.isNaN(ratio) ? Double.NaN : se));
    }

    public double tolerance() {
        return LittleBand.tolerance(se);
    }

    public double low() {
        return LittleBand.low(se);
    }

    public double high() {
        return LittleBand.high(se);
    }

    public boolean known() {
        return !Double.isNaN(ratio);
    }

    /** Within the band, and judged at all: a ratio that was not judged is never steady. */
    public boolean steady() {
        return notJudged == null && known() && ratio >= low() && ratio <= high();
    }

    /** What the ratio says, in words. */
    public String verdict() {
        if (notJudged != null) {
            return "not judged (" + notJudged + ")";
        }
        if (!known()) {
            return "not computable (no population, throughput or times in the run phase)";
        }
        if (steady()) {
            return "within the steady band: the users' time is accounted for by waiting for replies and thinking";
        }
        return ratio > high()
                ? "above the band: fewer users were at work in the run phase than N (still arriving, or the client sent late)"
                : "below the band: N, X, R and Z do not describe the same population (e.g. a throughput trend, or think times the logs misjudge)";
    }
}
