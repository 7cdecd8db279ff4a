package org.rubis.analysis;

import java.util.Locale;

/**
 * Little's law for the run phase, N = X (R + Z), as the ratio N / (X (R + Z)) with the band a steady run stays in:
 * the definition, names and band of the client's stationarity check (rubis-client's {@code Stationarity}, summary.json
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
 * @param notJudged why the ratio cannot be judged (the client's rule: a run phase under 8 whole seconds, under 50
 *                requests, or a band wider than 1 +- 0.5), or null when it can
 */
public record LittleLaw(double n, double xRps, double rMs, double zMs, double ratio, double se, String source, String notJudged) {

    /** The client's rule (rubis-client's {@code Stationarity}): fewer whole windows of 1 s than this are not judged. */
    static final int MIN_SECONDS = 8;
    /** ... nor fewer requests than this ... */
    static final int MIN_REQUESTS = 50;
    /** ... nor a band wider than 1 +- this, which no ratio a run could produce would fail. */
    static final double MAX_TOLERANCE = 0.5;

    /** The band of a steady run: 0.95..1.05, or 2.58 standard errors when wider (Stationarity's). */
    public static final double TOLERANCE = 0.05;
    public static final double Z = 2.5758293;

    /** The client's own figures (summary.json {@code stationarity}): N users started, Z every think drawn. */
    static LittleLaw fromSummary(com.fasterxml.jackson.databind.JsonNode s, double xRps, double rMs) {
        com.fasterxml.jackson.databind.JsonNode st = s.path("stationarity");
        // The summary's own verdict stands: a phase it did not judge is not judged here either.
        String notJudged = "not-judged".equals(st.path("verdict").asText()) ? st.path("not_judged_reason").asText("the summary did not judge it") : null;
        return new LittleLaw(s.path("users_started").asDouble(s.path("users").asDouble()), xRps, rMs, st.path("mean_think_s").asDouble() * 1000,
                st.path("little_ratio").asDouble(), st.path("little_ratio_se").asDouble(0),
                "summary.json (the client's own figures: N = users started, Z = every think time drawn in the run phase, "
                        + "including those still running at its end)", notJudged);
    }

    /**
     * An estimate from the logs: N the mean number of active sessions in the run phase, Z the think times within
     * sessions (each censored one by its elapsed part, {@link org.rubis.analysis.stats.CensoredMean}).
     */
    static LittleLaw fromLogs(double n, double xRps, double rMs, org.rubis.analysis.stats.CensoredMean z, double runSeconds) {
        double cycle = xRps * (rMs + z.meanMs()) / 1000;
        double ratio = n > 0 && cycle > 0 ? n / cycle : Double.NaN;
        String censored = z.censoredCount() == 0 ? "none still running at the end"
                : String.format(Locale.ROOT, "%d still running at the end counted by their elapsed part, assuming exponential think times; "
                        + "the mean of the %d finished ones alone, biased low, is %.1f ms", z.censoredCount(), z.finishedCount(), z.plainMeanMs());
        double se = standardError(n, runSeconds, rMs / 1000, z.meanMs() / 1000);
        long requests = Math.round(xRps * runSeconds);
        String notJudged = (long) runSeconds < MIN_SECONDS
                ? String.format(Locale.ROOT, "too short: %d whole seconds of run phase, need %d", (long) runSeconds, MIN_SECONDS)
                : requests < MIN_REQUESTS ? String.format(Locale.ROOT, "too few requests: %d in the run phase, need %d", requests, MIN_REQUESTS)
                : Z * se > MAX_TOLERANCE ? String.format(Locale.ROOT, "too few users for the phase's length: the band would be 1 +- %.2f", Z * se)
                : null;
        return new LittleLaw(n, xRps, rMs, z.meanMs(), ratio, se,
                "estimated from the logs (no client figures in summary.json): N = mean active sessions in the run phase, "
                        + "X = run-phase requests per second but those that opened a session (no think time before them within it), "
                        + "Z = think times within sessions (" + censored + ")", notJudged);
    }

    /**
     * Stationarity's relative standard error of the ratio, sqrt(2 Var(residual) / N) / T, with exponential think
     * times of mean {@code zS} (their mean square and cube 2 z^2 and 6 z^3); 0 when unknown.
     */
    static double standardError(double users, double runSeconds, double r, double zS) {
        if (users <= 0 || runSeconds <= 0 || zS + r <= 0) {
            return 0;
        }
        double m1 = zS + r;
        double m2 = 2 * zS * zS + 2 * r * zS + r * r;
        double m3 = 6 * zS * zS * zS + 3 * r * 2 * zS * zS + 3 * r * r * zS + r * r * r;
        double var = Math.max(0, m3 / (3 * m1) - (m2 / (2 * m1)) * (m2 / (2 * m1)));
        return Math.sqrt(2 * var / users) / runSeconds;
    }

    public double tolerance() {
        return Math.max(TOLERANCE, Z * se);
    }

    /** Never below 0 (a ratio is not negative). */
    public double low() {
        return Math.max(0, 1 - tolerance());
    }

    public double high() {
        return 1 + tolerance();
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
