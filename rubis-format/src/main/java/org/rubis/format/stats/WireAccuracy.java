package org.rubis.format.stats;

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
 * <p>Whom to blame when the rule fails is a second question ({@link #floorExplains}): with the reference
 * probe in the run, the error every client pays on this host (its floor) is measured beside ours. The probe
 * never changes the answer to the first: a run further from the wire than the limit is INACCURATE whoever
 * caused it (its published times are that far off); the probe names the cause ({@link #cause}), and every
 * place that states the verdict states both, from here ({@link #word}, {@link #causeText}).
 *
 * @param meanUs        mean client minus wire of the response time, all matched requests (us)
 * @param p50Us         its median
 * @param p99Us         its 99th percentile
 * @param requests      requests it was measured on
 * @param wireMedianUs  the wire's median response time over the same requests (us)
 * @param sendP50Us     median send side (first request packet minus the client's send mark), us
 * @param receiveP50Us  median receive side (client's end mark minus the last response packet), us
 * @param reusedMeanUs  mean client minus wire of the requests on reused connections (NaN: none)
 * @param newRequests   requests that opened their connection (their client time includes the connect, the wire's does not)
 * @param newMeanUs     their mean client minus wire (NaN: none)
 * @param floorMeanUs   the reference probe's mean client minus wire in the same run (NaN: no probe)
 * @param newBeforeSynMeanUs  of the new connections opened inside their request's window: mean send mark to SYN (NaN: none)
 * @param newSynToRequestMeanUs  their mean SYN to first request packet (NaN: none)
 */
public record WireAccuracy(
        double meanUs,
        double p50Us,
        double p99Us,
        long requests,
        double wireMedianUs,
        double sendP50Us,
        double receiveP50Us,
        double reusedMeanUs,
        long newRequests,
        double newMeanUs,
        double floorMeanUs,
        double newBeforeSynMeanUs,
        double newSynToRequestMeanUs) {

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
        return String.format(
                Locale.ROOT,
                "limit %.0f us (the larger of %.0f us and %.0f %% of the wire's median %.1f us)",
                limitUs(),
                ABSOLUTE_LIMIT_US,
                RELATIVE_LIMIT * 100,
                wireMedianUs);
    }

    /** "send side p50 120.0 us, receive side p50 180.0 us" (NaN: not known). */
    public String splitText() {
        return String.format(Locale.ROOT, "send side p50 %.1f us, receive side p50 %.1f us", sendP50Us, receiveP50Us);
    }

    /** The verdict's word: {@code OK} or {@code INACCURATE}. */
    public String word() {
        return within() ? "OK" : "INACCURATE";
    }

    /**
     * Whom an INACCURATE verdict blames: {@code HOST} when this host's floor explains the error ({@link
     * #floorExplains}), else {@code CLIENT} (also without a probe: the floor was not measured); {@code ""} when
     * accurate.
     */
    public String cause() {
        if (within()) {
            return "";
        }
        return floorExplains() ? "HOST" : "CLIENT";
    }

    /**
     * "cause HOST: this host's floor, not the client: the reference probe ..." (the cause of an INACCURATE verdict
     * with its evidence), or "" when accurate.
     */
    public String causeText() {
        if (within()) {
            return "";
        }
        if (floorExplains()) {
            return "cause HOST: this host's floor, not the client: " + floorText() + ", within the limit";
        }
        if (floorText().isEmpty()) {
            return "cause CLIENT (this host's floor was not measured: run with --probe to measure it beside the"
                    + " client)";
        }
        return "cause CLIENT: " + floorText() + ", beyond the limit";
    }

    /** "INACCURATE, cause HOST" or "OK": the verdict in a few words, the same wherever it is stated. */
    public String shortText() {
        return within() ? word() : word() + ", cause " + cause();
    }

    /** The client's own error on reused connections above the probe's, like for like (NaN: not known). */
    public double aboveFloorMeanUs() {
        return reusedMeanUs - floorMeanUs;
    }

    /**
     * True when the rule fails but not because of the client: on reused connections (where the client's
     * window and the wire's cover the same exchange) the client's mean error is within the limit of the
     * floor a minimal client measured in the same run. What is left is the host's (waking a blocked thread,
     * loopback delivery: any client here pays it) and the connects of new connections, which the client's
     * time includes and the wire's request time starts after.
     */
    public boolean floorExplains() {
        return !within() && !Double.isNaN(aboveFloorMeanUs()) && aboveFloorMeanUs() <= limitUs();
    }

    /** "the reference probe ... 321.6 us ...; reused connections 245.3 us (-76.3 us against it)", or "" without a probe. */
    public String floorText() {
        if (Double.isNaN(floorMeanUs)) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "the reference probe (a minimal client on one connection) was %.1f us (mean) above the wire in the same run, "
                        + "the client on reused connections %.1f us (%+.1f us against it)",
                floorMeanUs,
                reusedMeanUs,
                aboveFloorMeanUs());
    }

    /** "812 of 1518 requests opened their connection (mean 702.3 us above the wire): their times include the connect ...", or "". */
    public String newConnectionsText() {
        if (newRequests == 0 || Double.isNaN(newMeanUs)) {
            return "";
        }
        String split = Double.isNaN(newBeforeSynMeanUs)
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (mean: the client's own work from its send mark to the SYN %.1f us, the SYN to the request %.1f us)",
                        newBeforeSynMeanUs,
                        newSynToRequestMeanUs);
        return String.format(
                Locale.ROOT,
                "%d of %d requests opened their connection (%.1f us mean above the wire): their times include the connect, "
                        + "which the wire's request time starts after%s",
                newRequests,
                requests,
                newMeanUs,
                split);
    }
}
