package org.rubis.client.engine;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.backend.Reply;

/**
 * A platform thread per emulated user (the original's model, and the pitfall switch), driving
 * {@link SessionStep} synchronously with a blocking backend: wait for the intended instant,
 * execute, take the reply, repeat. Virtual threads have their own model ({@link VirtualThreadSessions}):
 * a virtual thread parked through each think time would keep its stack for it.
 */
final class ThreadSessions implements SessionExecutor {

    private final SessionContext ctx;
    private final BlockingBackend backend;
    private final PrepareAhead prepareAhead;
    private final FailureHandler failures;
    private final Queue<Thread> running = new ConcurrentLinkedQueue<>();
    private final AtomicLong startedCount = new AtomicLong();

    ThreadSessions(SessionContext ctx, BlockingBackend backend, FailureHandler failures) {
        this.ctx = ctx;
        this.backend = backend;
        this.prepareAhead = PrepareAhead.of(backend);
        this.failures = failures;
    }

    @Override
    public void start(String name, int emulatedUser, long firstIntendedNano, Sessions sessions, Runnable onFinished) {
        Runnable user = () -> {
            try {
                Reply reply = new Reply();
                long next = firstIntendedNano;
                for (long k = 0; ; k++) {
                    Start s = sessions.next(k, next);
                    if (s == null) {
                        break;
                    }
                    next = run(new SessionStep(ctx, s.session(), emulatedUser, s.atNano(), s.leaving()), reply);
                    if (next == SessionStep.ABORTED) {
                        break;
                    }
                }
            } catch (OutOfMemoryError | RuntimeException | LinkageError e) {
                failures.failed(name, e);
            } finally {
                onFinished.run();
            }
        };
        Thread t = Thread.ofPlatform().name(name).daemon(true).unstarted(user);
        t.start();
        running.add(t);
        if (startedCount.incrementAndGet() % 1024 == 0) {
            running.removeIf(x -> !x.isAlive());
        }
    }

    /** Runs one session on the calling thread; returns the next session's intended start or ABORTED. */
    private long run(SessionStep step, Reply reply) {
        // The backend's session exists before its first request's intended instant, so that the backend can prepare
        // that request's connection (PrepareAhead); the session's start in the log is its first request's (begin()).
        Backend.Session bs = backend.startSession();
        boolean begun = false;
        boolean aborted = false;
        boolean finished = false;
        try {
            if (!awaitStep(step.intended(), bs)) {
                return SessionStep.ABORTED;
            }
            step.begin();
            begun = true;
            while (true) {
                ctx.seams().beforeSend();
                backend.execute(bs, step.path(), reply); // the send marked right before the network call (Reply)
                if (!step.replied(reply)) {
                    break;
                }
                if (!awaitStep(step.intended(), bs)) {
                    aborted = true;
                    break;
                }
            }
            finished = true;
        } finally {
            backend.endSession(bs); // a prepared socket the session did not use is closed with it
            if (begun && !finished) {
                step.abandon();
            }
        }
        return step.end(aborted);
    }

    /**
     * Waits for a step's intended instant; false when the run ended first. When the backend prepares the step
     * ({@link PrepareAhead#due}), the thread wakes once at the lead before the instant to prepare it, off the
     * request's window.
     */
    private boolean awaitStep(long intendedNano, Backend.Session bs) {
        RunClock clock = ctx.clock();
        StopSignal stop = ctx.stop();
        if (prepareAhead.due(bs, intendedNano - System.nanoTime())) {
            if (!stop.awaitUntil(intendedNano - prepareAhead.leadNanos(), clock.endNano())) {
                return false;
            }
            prepareAhead.prepare(bs);
        }
        return stop.awaitUntil(intendedNano, clock.endNano());
    }

    @Override
    public void drain(long graceNano) throws InterruptedException {
        for (Thread t : running) {
            long left = graceNano - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    @Override
    public void close() {
        // threads end by themselves at the stop
    }
}
