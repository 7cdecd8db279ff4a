package org.rubis.client.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.backend.Reply;

/**
 * The virtual-thread model: a virtual thread per request, think times on one timer. A thinking
 * user holds no thread, so no parked stack: a virtual thread parked for a whole think time keeps
 * the stack chunk its last socket read filled (about 4 KB, allocated young), and at 18,000 users
 * nearly every request left one for the next young collection to copy; those copies were the G1
 * pauses that set the model's send lateness (docs/BENCHMARKS.md). Here the request's thread ends
 * with the reply and its stack dies young.
 *
 * <p>A session's steps are those of {@link SessionStep}, as in the other models: at the intended
 * instant the timer starts a virtual thread that sends (the backend marks the send instant right
 * before the network call, as with a thread per user), takes the reply, and either sets the timer
 * for the next intended instant or ends the session. The session's {@link Backend.Session} lives
 * in its {@link Flow} across the think times, so each session keeps its own connection. A flow is
 * either waiting on the timer or running a request, never both; the stop and the end-of-run wait
 * end the waiting ones, requests in flight finish (or are given up on by the engine).
 *
 * <p>A backend that prepares new connections (a {@code PreparingBackend}, dedicated) gets its lead: when it
 * prepares the request ({@link PrepareAhead#due}), the timer fires the lead early and the request's virtual
 * thread prepares, then waits for the intended instant itself, so the prepare and the request run on one thread,
 * off the request's window. That thread holds its small stack for the lead only (1 ms).
 */
final class VirtualThreadSessions implements SessionExecutor {

    private final SessionContext ctx;
    private final BlockingBackend backend;
    private final PrepareAhead prepareAhead;
    private final FailureHandler failures;
    private final Set<Flow> flows = ConcurrentHashMap.newKeySet();
    /** The think times: one platform thread that only starts virtual threads, so it is never held up by a request. */
    private final ScheduledThreadPoolExecutor timer;

    VirtualThreadSessions(SessionContext ctx, BlockingBackend backend, FailureHandler failures) {
        this.ctx = ctx;
        this.backend = backend;
        this.prepareAhead = PrepareAhead.of(backend);
        this.failures = failures;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "rubis-think-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true); // a cancelled think time leaves no task behind in the queue
    }

    @Override
    public void start(String name, int emulatedUser, long firstIntendedNano, Sessions sessions, Runnable onFinished) {
        Reply reply = new Reply(); // reused by the user's requests, one at a time (as a thread per user does)
        new UserChain(
                        name,
                        emulatedUser,
                        ctx,
                        sessions,
                        failures,
                        onFinished,
                        (user, step, onEnd) -> new Flow(user, reply, step, onEnd).start())
                .next(0, firstIntendedNano);
    }

    @Override
    public void drain(long graceNano) throws InterruptedException {
        for (Flow f : flows) {
            f.abortIfWaiting();
        }
        while (!flows.isEmpty() && System.nanoTime() < graceNano) {
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow(); // think times left (none after the drain but those of stuck sessions) are dropped
    }

    /** One session: waiting on the timer, or running one request on its own virtual thread. */
    private final class Flow {
        final UserChain user;
        final Reply reply;
        final SessionStep step;
        final LongConsumer onEnd;
        /**
         * Created on the thread of the session's first request (or of its prepare), not when the flow starts: a user
         * waiting for its first request holds none (the dispatch starts every user at once, on one thread); kept until
         * the session ends.
         */
        Backend.Session bs;
        /** Guarded by this: a think time is on the timer (no thread runs the session). */
        boolean waiting;
        /** Guarded by this: the session has been ended (or abandoned); nothing more runs. */
        boolean finished;

        Future<?> think;

        Flow(UserChain user, Reply reply, SessionStep step, LongConsumer onEnd) {
            this.user = user;
            this.reply = reply;
            this.step = step;
            this.onEnd = onEnd;
        }

        void start() {
            flows.add(this);
            waitUntil(step.intended());
        }

        /**
         * Sets the timer for {@code nano}. A stopped run ends the session now; an instant at or past the
         * end of the run ends it at the end (as a thread per user sleeps to the end, then finds the run over).
         */
        void waitUntil(long nano) {
            long end = ctx.clock().endNano();
            boolean prepare = nano < end && prepareAhead.due(bs, nano - System.nanoTime()); // bs null: not created yet
            Runnable task = nano >= end ? () -> fired(true, false) : () -> fired(false, prepare);
            long lead = prepare ? prepareAhead.leadNanos() : 0;
            long delay = Math.max(0, Math.min(nano, end) - lead - System.nanoTime());
            synchronized (this) {
                if (finished) {
                    return;
                }
                // The stop is checked under the lock: a drain that visited this flow before it was waiting came after
                // the
                // stop, so the flag is seen here; a drain that visits it later finds it waiting and ends it.
                if (!ctx.stop().stopped()) {
                    try {
                        think = timer.schedule(
                                task, delay, TimeUnit.NANOSECONDS); // fired() takes this lock: it runs after this block
                        waiting = true;
                        return;
                    } catch (RejectedExecutionException e) {
                        // the executor is closed: the run is over
                    }
                }
            }
            end(true);
        }

        /** On the timer thread: the think time is over (or all but its lead); the request gets its own virtual thread. */
        void fired(boolean runOver, boolean prepare) {
            synchronized (this) {
                if (finished || !waiting) {
                    return; // ended by the stop meanwhile
                }
                waiting = false;
            }
            if (runOver) {
                end(true);
                return;
            }
            try {
                Thread.ofVirtual().name(user.name).start(prepare ? this::prepareThenRequest : this::request);
            } catch (OutOfMemoryError | RuntimeException e) {
                abandon(e);
            }
        }

        /**
         * On the request's virtual thread, the lead before its instant: prepares the connection, waits for the instant
         * (a stop wakes it), then runs the request.
         */
        void prepareThenRequest() {
            try {
                if (bs == null) {
                    bs = backend.startSession();
                }
                prepareAhead.prepare(bs); // a prepare that fails leaves the request to make its socket, as without one
                if (!ctx.stop().awaitUntil(step.intended(), ctx.clock().endNano())) {
                    end(true); // stopped meanwhile: the session's end closes the prepared socket
                    return;
                }
            } catch (OutOfMemoryError | RuntimeException | LinkageError e) {
                abandon(e);
                return;
            }
            request();
        }

        /** On the request's virtual thread: send, take the reply, then wait for the next request or end. */
        void request() {
            try {
                if (ctx.stop().stopped()) {
                    end(true);
                    return;
                }
                if (!step.started()) {
                    step.begin();
                    if (bs == null) {
                        bs = backend.startSession();
                    }
                }
                ctx.seams().beforeSend();
                backend.execute(bs, step.path(), reply); // the send marked right before the network call (Reply)
                if (!step.replied(reply)) {
                    end(false);
                    return;
                }
                waitUntil(step.intended());
            } catch (OutOfMemoryError | RuntimeException | LinkageError e) {
                abandon(e);
            }
        }

        /** Stop or end-of-run wait: a session waiting on the timer ends now; one in a request ends after its reply. */
        void abortIfWaiting() {
            synchronized (this) {
                if (finished || !waiting) {
                    return;
                }
                waiting = false;
                if (think != null) {
                    think.cancel(false);
                }
            }
            end(true);
        }

        /** Logs the session and starts the user's next one (which finds the run over when it was aborted). */
        void end(boolean aborted) {
            synchronized (this) {
                if (finished) {
                    return;
                }
                finished = true;
            }
            long next;
            try {
                if (bs != null) {
                    backend.endSession(bs);
                }
                next = step.end(aborted);
            } catch (OutOfMemoryError | RuntimeException | LinkageError e) {
                flows.remove(this);
                step.abandon();
                user.failed(e);
                return;
            }
            try {
                onEnd.accept(
                        next); // the next session joins the flows before this one leaves: the drain never sees a gap
            } finally {
                flows.remove(this);
            }
        }

        /** The session failed with an exception: it is not logged, its user ends, and the run is stopped as invalid. */
        void abandon(Throwable e) {
            synchronized (this) {
                if (finished) {
                    return;
                }
                finished = true;
            }
            try {
                if (bs != null) {
                    backend.endSession(bs);
                }
            } catch (OutOfMemoryError | RuntimeException | LinkageError ignored) {
                // the failure being reported is e
            } finally {
                step.abandon();
                flows.remove(this);
                user.failed(e);
            }
        }
    }
}
