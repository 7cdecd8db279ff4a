package org.rubis.client.config;

import java.math.BigDecimal;

/**
 * How users a load profile lets go leave: the policy, and for {@link LeavePolicy#GRACEFUL} the grace within which a
 * user may finish its session before it leaves at its next think time. One value, so that the policy and its bound
 * travel together from the configuration to the population and the summary.
 *
 * @param policy  how a user leaves
 * @param graceMs graceful: how long after the profile lets it go a user may stay to finish its session
 */
public record LeaveRule(LeavePolicy policy, long graceMs) {

    /** The default grace, as k6's {@code gracefulRampDown}: half a minute, a few RUBiS think times. */
    public static final long DEFAULT_GRACE_MS = 30_000;

    public static final LeaveRule DEFAULT = new LeaveRule(LeavePolicy.GRACEFUL, DEFAULT_GRACE_MS);

    /**
     * How long after the profile lets a user go it may still be in a session: 0 for next-think, {@link Long#MAX_VALUE}
     * (no bound) for end-of-session.
     */
    public long graceNs() {
        return switch (policy) {
            case NEXT_THINK -> 0;
            case END_OF_SESSION -> Long.MAX_VALUE;
            case GRACEFUL -> graceMs * 1_000_000L;
        };
    }

    /** As the summary and the resolved settings say it: {@code graceful (30 s)}, {@code next-think}. */
    public String label() {
        return policy == LeavePolicy.GRACEFUL
                ? policy.label() + " ("
                        + BigDecimal.valueOf(graceMs, 3).stripTrailingZeros().toPlainString() + " s)"
                : policy.label();
    }
}
