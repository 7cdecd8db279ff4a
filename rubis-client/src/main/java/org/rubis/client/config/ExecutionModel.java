package org.rubis.client.config;

/**
 * How sessions are executed, derived from the backend and the thread model: blocking backends run
 * each user on a platform or virtual thread; the netty backend runs every session on its event loops.
 * The label is what the summary and the start-up line say.
 */
public enum ExecutionModel {
    PLATFORM_THREADS("platform threads"),
    VIRTUAL_THREADS("virtual threads"),
    EVENT_LOOPS("event loops");

    private final String label;

    ExecutionModel(String label) {
        this.label = label;
    }

    public static ExecutionModel of(BackendKind backend, ThreadModel threads) {
        return backend.eventLoops() ? EVENT_LOOPS : threads == ThreadModel.VIRTUAL ? VIRTUAL_THREADS : PLATFORM_THREADS;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
