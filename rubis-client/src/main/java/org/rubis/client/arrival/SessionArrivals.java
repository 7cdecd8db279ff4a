package org.rubis.client.arrival;

/**
 * When hybrid-mode sessions start: a sequence of intended start instants, as offsets in ns from
 * the start of the run. Starts are scheduled against the clock, never after earlier sessions
 * complete, so an overloaded server cannot slow the arrival stream down (Banga and Druschel).
 */
public interface SessionArrivals {

    /** The next intended start offset (ns, non-decreasing), or -1 when there are no more. */
    long next();

    /** A one-line description for the summary. */
    String describe();
}
