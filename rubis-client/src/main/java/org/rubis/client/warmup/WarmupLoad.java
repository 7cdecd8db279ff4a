package org.rubis.client.warmup;

/**
 * A request path other than the backend's that the JIT warm-up exercises against its loopback stub
 * (the reference probe's), so that every path whose timing the run reports starts compiled. Created
 * for one warm-up by a run hook, driven on a thread of the warm-up, closed before the measurement.
 */
public interface WarmupLoad extends AutoCloseable {

    /** Named in the warm-up's line and summary, e.g. "reference probe". */
    String name();

    /** One request against the stub, as the measured code sends it; a failure throws. */
    void once() throws Exception;

    @Override
    void close();

    /** Creates a load aimed at the stub (never at the run's target), or returns null for none. */
    @FunctionalInterface
    interface Factory {
        WarmupLoad create(String stubBase) throws Exception;
    }
}
