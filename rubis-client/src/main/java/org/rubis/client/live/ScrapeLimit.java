package org.rubis.client.live;

/**
 * How many scrapes of {@code /metrics} the endpoint answers per window; the others get 429 Too Many Requests. Each
 * answer snapshots and formats every series on the endpoint's threads, which share the cores with the run: 40 scrape
 * loops (1,600 scrapes/s) moved the client from 0.16 to 0.88 cores and its p50 from 2.27 to 4.51 ms. A Prometheus
 * scraping every second takes one a second; a refusal costs the JDK server's parse and a few bytes.
 */
final class ScrapeLimit {

    /** Scrapes answered per second: a few Prometheus servers and a page, with room to spare. */
    static final int PER_SECOND = 20;

    private final int perWindow;
    private final long windowNanos;
    private long windowStart;
    private int used;
    private boolean started;

    ScrapeLimit(int perWindow, long windowNanos) {
        this.perWindow = perWindow;
        this.windowNanos = windowNanos;
    }

    /** The endpoint's: {@link #PER_SECOND} a second. */
    static ScrapeLimit perSecond() {
        return new ScrapeLimit(PER_SECOND, 1_000_000_000L);
    }

    /** Whether a scrape at {@code nowNanos} ({@link System#nanoTime()}) is answered. */
    synchronized boolean tryAcquire(long nowNanos) {
        if (!started || nowNanos - windowStart >= windowNanos) {
            started = true;
            windowStart = nowNanos;
            used = 0;
        }
        if (used >= perWindow) {
            return false;
        }
        used++;
        return true;
    }

    /** Whole seconds until the window ends, at least 1: the refusal's Retry-After. */
    synchronized long retryAfterSeconds(long nowNanos) {
        long left = windowStart + windowNanos - nowNanos;
        return Math.max(1, (left + 999_999_999L) / 1_000_000_000L);
    }
}
