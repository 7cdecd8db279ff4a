package org.rubis.client.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.backend.Reply;

/**
 * Sessions on the backend's event loops, no thread per user: think times are timers, replies are
 * callbacks, and each step calls the same {@link SessionStep} the threads use. All of a session's
 * steps run on its own loop, so a {@link Flow} needs no locking; a closed-mode user's sessions are
 * chained by their end callbacks.
 */
final class EventLoopSessions implements SessionExecutor {

    private final SessionContext ctx;
    private final EventLoopBackend backend;
    /** When a step's prepare timer fires before it ({@link PrepareAhead#due}), and how early. */
    private final PrepareAhead prepareAhead;

    private final FailureHandler failures;
    private final Set<Flow> flows = ConcurrentHashMap.newKeySet();

    EventLoopSessions(SessionContext ctx, EventLoopBackend backend, FailureHandler failures) {
        this.ctx = ctx;
        this.backend = backend;
        this.prepareAhead = PrepareAhead.of(backend);
        this.failures = failures;
    }

    @Override
    public void start(String name, int emulatedUser, long firstIntendedNano, Sessions sessions, Runnable onFinished) {
        new UserChain(
                        name,
                        emulatedUser,
                        ctx,
                        sessions,
                        failures,
                        onFinished,
                        (user, step, onEnd) -> new Flow(step, onEnd).start())
                .next(0, firstIntendedNano);
    }

    /** Sessions scheduled or running. */
    int live() {
        return flows.size();
    }

    @Override
    public void drain(long graceNano) throws InterruptedException {
        for (Flow f : flows) {
            f.loop.execute(f::abortIfWaiting);
        }
        while (!flows.isEmpty() && System.nanoTime() < graceNano) {
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        // the backend owns the event loops
    }

    /** One session on its event loop: timer, send, reply, next timer. */
    private final class Flow implements Runnable {
        final SessionStep step;
        final LongConsumer onEnd;
        final Backend.Session bs;
        final ScheduledExecutorService loop;
        final Reply reply = new Reply();
        /** Built once: a method reference per request would be an allocation per request (the reply callback is {@link #run}). */
        final Runnable onNext = this::next;

        boolean awaiting;
        boolean finished;
        Future<?> timer;

        Flow(SessionStep step, LongConsumer onEnd) {
            this.step = step;
            this.onEnd = onEnd;
            this.bs = backend.startSession();
            this.loop = backend.loop(bs);
        }

        void start() {
            flows.add(this);
            at(step.intended(), this::first);
        }

        /**
         * Runs {@code task} at {@code nano} on this session's loop; past the end of the run, ends the session.
         * A step already due (no think time) is queued to run once the loop's current work is done, not timed:
         * a timer per request was a scheduled task created and kept for nothing.
         */
        void at(long nano, Runnable task) {
            at(nano, task, false, Long.MIN_VALUE);
        }

        /**
         * {@code inline}: a step already due runs now, in this call (after a reply that came from the network, never from a
         * failure). {@code past}: an instant known to be past (the reply's end); a step due by then needs no clock read.
         */
        void at(long nano, Runnable task, boolean inline, long past) {
            long end = ctx.clock().endNano();
            if (nano >= end) {
                timer = loop.schedule(() -> end(true), Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                return;
            }
            long delay = nano <= past ? 0 : nano - System.nanoTime();
            if (delay <= 0) {
                timer = null;
                if (inline) {
                    task.run();
                } else {
                    loop.execute(task);
                }
                return;
            }
            if (prepareAhead.due(bs, delay)) {
                long early = delay - prepareAhead.leadNanos();
                timer = loop.schedule(() -> prepareThen(nano, task), early, TimeUnit.NANOSECONDS);
                return;
            }
            timer = loop.schedule(task, delay, TimeUnit.NANOSECONDS);
        }

        /**
         * Prepares ({@link PrepareAhead#prepare}) a little before the step at {@code nano}, then the step's own timer:
         * what the backend readies here (a new connection's channel) stays out of the request's window, which opens at
         * its send mark.
         */
        void prepareThen(long nano, Runnable task) {
            if (finished) {
                return;
            }
            prepareAhead.prepare(bs);
            at(nano, task);
        }

        void first() {
            if (finished) {
                return;
            }
            if (ctx.stop().stopped()) {
                end(true);
                return;
            }
            step.begin();
            send();
        }

        void next() {
            if (finished) {
                return; // ended while this step was queued
            }
            if (ctx.stop().stopped()) {
                end(true);
                return;
            }
            send();
        }

        void send() {
            awaiting = true;
            backend.send(bs, step.path(), reply, this); // the send marked right before the write (Reply)
        }

        /** The reply callback. */
        @Override
        public void run() {
            replied();
        }

        void replied() {
            awaiting = false;
            if (finished) {
                return;
            }
            boolean fromNetwork = !reply.failed(); // read before the step, which drops the page
            if (!step.replied(reply)) {
                end(false);
                return;
            }
            // A reply read from the network ends a read, so the next request can leave at once without recursion; a
            // failure
            // may have been detected within the send (a connect that failed at once): its next step is queued.
            at(step.intended(), onNext, fromNetwork, step.lastDone());
        }

        void abortIfWaiting() {
            if (!finished && !awaiting) {
                if (timer != null) {
                    timer.cancel(false);
                }
                end(true);
            }
        }

        void end(boolean aborted) {
            if (finished) {
                return;
            }
            finished = true;
            try {
                backend.endSession(bs);
                // Logged, and the user's next session among the flows, before this one leaves: the drain waits for an
                // empty set, then the log closes, so a session line added after the removal could come too late.
                onEnd.accept(step.end(aborted));
            } finally {
                flows.remove(this);
            }
        }
    }
}
