package org.rubis.client.backend;

/**
 * The one rule every execution model follows before a request: call {@link PreparingBackend#prepare}
 * {@link #leadNanos()} before a request due in {@code dueInNanos} when the backend prepares, the request
 * is due later than twice the lead (room for the lead and the timer's or wake-up's lateness), and the
 * session has something to prepare ({@link PreparingBackend#prepares}; a session not created yet,
 * {@code null}, has: its first request opens a connection). Resolved once per executor; for a backend
 * that does not prepare, {@link #due} is always false.
 */
public final class PrepareAhead {

    private static final PrepareAhead NEVER = new PrepareAhead(null, 0);

    private final PreparingBackend backend;
    private final long lead;

    private PrepareAhead(PreparingBackend backend, long lead) {
        this.backend = backend;
        this.lead = lead;
    }

    /** The rule for {@code backend}: never, unless it is a {@link PreparingBackend} with a positive lead. */
    public static PrepareAhead of(Backend backend) {
        if (backend instanceof PreparingBackend p && p.prepareLeadNanos() > 0) {
            return new PrepareAhead(p, p.prepareLeadNanos());
        }
        return NEVER;
    }

    /** True when the backend prepares at all. */
    public boolean enabled() {
        return lead > 0;
    }

    /** How long before the request {@link #prepare} runs; 0 when the backend does not prepare. */
    public long leadNanos() {
        return lead;
    }

    /** Whether to wake {@link #leadNanos()} early for {@link #prepare} before a request due in {@code dueInNanos}. */
    public boolean due(Backend.Session session, long dueInNanos) {
        return lead > 0
                && dueInNanos > 2 * lead
                && (session == null || backend.prepares(session, System.nanoTime() + dueInNanos));
    }

    /** Prepares the session's next request (only when {@link #enabled()}). */
    public void prepare(Backend.Session session) {
        backend.prepare(session);
    }
}
