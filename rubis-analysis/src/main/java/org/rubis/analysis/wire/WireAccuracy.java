package org.rubis.analysis.wire;

import java.util.Locale;

/**
 * The one accuracy rule of a captured run, used wherever a run is called accurate or not: the wire
 * check's line in the summary ({@code accuracy_verdict}), the run's verdict (an inaccurate client is
 * the CLIENT's cause) and the report. Two rules in two places once disagreed on the same run; a
 * single record computed once cannot.
 *
 * <p>The rule: the client's response times are accurate when their mean distance above the wire, over
 * every matched request with a response, is at most {@link #limitUs} = the larger of
 * {@link #ABSOLUTE_LIMIT_US} and {@link #RELATIVE_LIMIT} of the wire's median response time. The
 * question it answers is whether the client's error can change a comparison: the published mean is off
 * by exactly this mean error, and below a tenth of the typical response time it cannot reorder
 * systems; 50 us is what a load generator can reach (httperf: 10 to 40 us), so a fast application is
 * not held to less. docs/WIRE.md says more.
 *
 * @param meanUs        mean client minus wire of the response time, all matched requests (us)
 * @param p50Us         its median
 * @param p99Us         its 99th percentile
 * @param requests      requests it was measured on
 * @param wireMedianUs  the wire's median response time over the same requests (us)
 * @param sendP50Us     median send side (first request packet minus the client's send mark), us
 * @param receiveP50Us  median receive side (client's end mark minus the last response packet), us
 */
public record WireAccuracy(double meanUs, double p50Us, double p99Us, long requests, double wireMedianUs, double sendP50Us,
        double receiveP50Us) {

    /** The error a load generator can reach (httperf's 10 to 40 us in the paper; issue 12's goal). */
    public static final double ABSOLUTE_LIMIT_US = 50;
    /** Beyond this fraction of the wire's median, the client's error could change comparisons between systems. */
    public static final double RELATIVE_LIMIT = 0.10;

    /** The limit for a run whose wire median response time is {@code wireMedianUs}. */
    public static double limitUs(double wireMedianUs) {
        return Math.max(ABSOLUTE_LIMIT_US, RELATIVE_LIMIT * wireMedianUs);
    }

    public double limitUs() {
        return limitUs(wireMedianUs);
    }

    /** The verdict: the mean error is within the limit. */
    public boolean within() {
        return meanUs <= limitUs();
    }

    /** "limit 100 us (the larger of 50 us and 10 % of the wire's median 1000.0 us)". */
    public String limitText() {
        return String.format(Locale.ROOT, "limit %.0f us (the larger of %.0f us and %.0f %% of the wire's median %.1f us)", limitUs(),
                ABSOLUTE_LIMIT_US, RELATIVE_LIMIT * 100, wireMedianUs);
    }

    /** "send side p50 120.0 us, receive side p50 180.0 us" (NaN: not known). */
    public String splitText() {
        return String.format(Locale.ROOT, "send side p50 %.1f us, receive side p50 %.1f us", sendP50Us, receiveP50Us);
    }
}
