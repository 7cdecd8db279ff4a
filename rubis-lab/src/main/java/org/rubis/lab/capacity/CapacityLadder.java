package org.rubis.lab.capacity;

/**
 * The {@code capacity} search's bookkeeping, step by step: the largest N sustained before the first bottleneck, the
 * reason the search ended, and whether to try the next step. By default the first step that is not sustained ends it;
 * {@code untilHeap} goes on past lateness and CPU bottlenecks to a step that fails or fills its heap, because on a host
 * whose cores give out first (thousands of platform threads woken late on 2 vCPUs) the heap's own limit, which the
 * heap-capacity finding is about, would otherwise never be reached.
 */
final class CapacityLadder {

    private final boolean untilHeap;
    private int sustained;
    private boolean bottleneck;
    private String stopReason = "all steps sustained";

    CapacityLadder(boolean untilHeap) {
        this.untilHeap = untilHeap;
    }

    /**
     * Step {@code n} ended with {@code verdict} ({@code sustained}, a bottleneck, {@code FAILED: ...}); {@code failed}: the
     * step's run did not complete (or left no summary). True when the search goes on to the next step.
     */
    boolean step(int n, String verdict, boolean failed) {
        if (!failed && verdict.equals("sustained")) {
            if (!bottleneck) {
                sustained = n;
            }
            return true;
        }
        stopReason = (bottleneck ? stopReason + "; then " : "") + "N=" + n + ": " + verdict;
        bottleneck = true;
        return untilHeap && !failed && !verdict.contains("heap full");
    }

    /** The largest N sustained before the first step that was not (0: none). */
    int sustained() {
        return sustained;
    }

    String stopReason() {
        return stopReason;
    }
}
