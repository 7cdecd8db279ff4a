package org.rubis.client.engine;

/**
 * Test hooks: the JVM system property {@code rubis.test.client_stall_ms} (never a configuration
 * key) makes every user thread wait that long before each request, a client slowed on purpose,
 * so that tests can check that the verdict then blames the client; {@code rubis.test.summary_stall_ms}
 * holds the run that long before it builds its summary (the logs closed), saying so on stderr, so that
 * a test can signal it at that moment. Zero (the default) costs one branch on a constant.
 */
final class TestStall {

    private static final long STALL_MS = Long.getLong("rubis.test.client_stall_ms", 0L);
    private static final long SUMMARY_STALL_MS = Long.getLong("rubis.test.summary_stall_ms", 0L);

    private TestStall() {}

    static void beforeSend() {
        if (STALL_MS > 0) {
            try {
                Thread.sleep(STALL_MS); // a user thread held up inside the client, as by a lock or a busy loop
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void beforeSummary() {
        if (SUMMARY_STALL_MS > 0) {
            System.err.println("rubis.test.summary_stall_ms: the summary waits " + SUMMARY_STALL_MS + " ms");
            try {
                Thread.sleep(SUMMARY_STALL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
