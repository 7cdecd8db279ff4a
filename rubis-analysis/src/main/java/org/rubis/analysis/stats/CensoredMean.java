package org.rubis.analysis.stats;

/**
 * The mean of durations some of which were still running when observation stopped (right-censored): think
 * times started near the end of a run whose next request never came. Leaving those out biases the mean low
 * (long thinks are the likeliest to be cut off), so each one counts by its elapsed part: for exponential
 * durations (TPC-W's think time) the maximum-likelihood mean is the total time observed, finished and
 * unfinished, over the number that finished. {@link #plainMeanMs()} is the biased mean of the finished ones alone.
 */
public final class CensoredMean {
    private long finished;
    private double finishedSumNs;
    private long censored;
    private double censoredSumNs;

    /** A duration that ended within the observation. */
    public void finished(long ns) {
        finished++;
        finishedSumNs += ns;
    }

    /** A duration still running when observation stopped, {@code elapsedNs} into it. */
    public void censored(long elapsedNs) {
        censored++;
        censoredSumNs += Math.max(0, elapsedNs);
    }

    public long finishedCount() {
        return finished;
    }

    public long censoredCount() {
        return censored;
    }

    /** Finished and censored durations' total over the finished count (exponential MLE), ms; 0 when none finished. */
    public double meanMs() {
        return finished == 0 ? 0 : (finishedSumNs + censoredSumNs) / finished / 1e6;
    }

    /** The mean of the finished durations alone, ms (biased low when any were censored). */
    public double plainMeanMs() {
        return finished == 0 ? 0 : finishedSumNs / finished / 1e6;
    }
}
