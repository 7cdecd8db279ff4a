package org.rubis.client.engine;

import java.net.InetAddress;

/**
 * The run's test seams, passed to the engine instead of read where they act, so that a test states what it changes:
 * production runs with {@link #NONE}. A client a test starts as a child JVM takes the ones that must cross the process
 * boundary from {@code -Drubis.test.*} system properties (never configuration keys) through
 * {@link #fromSystemProperties}, the one place that reads them.
 *
 * @param endWaitMs how long the run waits for requests in flight after the stop; -1: request + connect timeout + 2 s
 *     (shorter, to see what happens to the sessions it gives up on)
 * @param warmupStubAddress where the JIT warm-up's stub listens (an address that cannot be bound makes it fail)
 * @param sendStallMs {@code rubis.test.client_stall_ms}: every user waits that long before each request, a client
 *     slowed on purpose, so that a test can check that the verdict then blames the client
 * @param summaryStallMs {@code rubis.test.summary_stall_ms}: the run waits that long before it builds its summary (the
 *     logs closed), saying so on stderr, so that a test can signal it at that moment
 */
public record RunSeams(long endWaitMs, InetAddress warmupStubAddress, long sendStallMs, long summaryStallMs) {

    /** Production: the end-of-run wait the timeouts imply, the stub on loopback, no stall. */
    public static final RunSeams NONE = new RunSeams(-1, InetAddress.getLoopbackAddress(), 0, 0);

    /** The seams a test set on this JVM with {@code -Drubis.test.client_stall_ms} and {@code ...summary_stall_ms}. */
    public static RunSeams fromSystemProperties() {
        return new RunSeams(
                -1,
                InetAddress.getLoopbackAddress(),
                Long.getLong("rubis.test.client_stall_ms", 0L),
                Long.getLong("rubis.test.summary_stall_ms", 0L));
    }

    /** On a user's thread before each send: a user thread held up inside the client, as by a lock or a busy loop. */
    void beforeSend() {
        if (sendStallMs > 0) {
            sleep(sendStallMs);
        }
    }

    void beforeSummary() {
        if (summaryStallMs > 0) {
            System.err.println("rubis.test.summary_stall_ms: the summary waits " + summaryStallMs + " ms");
            sleep(summaryStallMs);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
