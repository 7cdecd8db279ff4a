package org.rubis.client.workload;

import java.util.SplittableRandom;

/**
 * The random streams of one session, derived only from (run seed, session id), so a session's
 * states, think times and parameters do not depend on thread scheduling or on other sessions.
 * Transitions, think times and request parameters use separate streams: a reply that differs
 * between two runs (a write by another session) cannot shift the state sequence.
 */
public final class SessionRandom {

    public final SplittableRandom transitions;
    public final SplittableRandom think;
    public final SplittableRandom params;

    public SessionRandom(long runSeed, long sessionId) {
        long base = mix(runSeed * 0x9E3779B97F4A7C15L + mix(sessionId + 0x632BE59BD9B4E019L));
        this.transitions = new SplittableRandom(mix(base ^ 0x1L));
        this.think = new SplittableRandom(mix(base ^ 0x2L));
        this.params = new SplittableRandom(mix(base ^ 0x3L));
    }

    /** Stafford's mix13 finaliser (as in SplittableRandom): a good 64-bit hash. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
