package org.rubis.client.warmup;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.report.JvmFacts;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;
import org.rubis.client.workload.WorkloadModel;
import org.rubis.format.io.Tls;

/**
 * The JIT warm-up before a measurement. At TPC-W think times (7 s mean) a run calls the request path
 * a few hundred times, while HotSpot compiles a method with C2 only after thousands of calls: without
 * a warm-up the measured requests run in the interpreter or in C1 with profiling, and the client adds
 * hundreds of microseconds of its own to every response time, the JVM pitfall of the original paper.
 *
 * <p>So before the run, the same code the run uses (a second instance of the configured backend made
 * by {@link Backends#create}, its connection policy, request building, reads and reply buffers; the
 * session logic choosing paths and decoding pages; the event-loop send and timer path for netty; the
 * reference probe's exchange) sends requests back to back to a {@link StubServer} on loopback, from a
 * few threads or event-loop flows, until the JIT is quiet: no compilation for {@value #QUIET_MS} ms
 * after at least {@value #MIN_REQUESTS} requests, or a cap ({@value #CAP_REQUESTS} requests,
 * {@value #CAP_SECONDS} s, or the run's start instant). Compiled code belongs to classes, not
 * instances, so the run's own backend instance starts compiled. The run's target never sees a
 * warm-up request; a warm-up that cannot run is reported and skipped, never fatal.
 *
 * <p>When the target is HTTPS ({@link #overTls}), the stub speaks TLS and the warm-up's backend is made
 * for {@code https://} with the run's TLS settings, so that the TLS code the run will use (SSLEngine
 * wrap/unwrap under netty's SslHandler, SSLSocket records under HttpClient 5's TLS socket strategy or
 * the JDK's HttpsURLConnection, and the handshakes, resumed ones included when resumption is on) is
 * compiled as well; its own SSL contexts, so the run's session cache holds nothing of the stub's.
 */
public final class JitWarmup {

    /** Auto: requests before quiet compilation counts (C2's invocation threshold is 5,000). */
    static final int MIN_REQUESTS = 6_000;
    /** Auto: the most requests. */
    static final int CAP_REQUESTS = 20_000;
    /** Auto: the longest warm-up. */
    static final int CAP_SECONDS = 5;
    /** A fixed count: the longest warm-up. */
    static final int COUNT_CAP_SECONDS = 60;
    /** Auto: how long compilation must have been quiet. */
    static final int QUIET_MS = 300;
    /** Threads of a blocking backend (a few, to warm the pools' concurrent paths too). */
    static final int THREADS = 4;
    /** Concurrent sessions on an event-loop backend. */
    static final int FLOWS = 8;
    /** Auto: requests of another path (the probe) after which it rests, leaving the CPU to the backend's. */
    static final int OTHER_PATH_REQUESTS = 10_000;
    /** Sessions per connection are those of the workload; a warm-up gives up after this many failures without a success. */
    static final int FAILURES_BEFORE_GIVING_UP = 200;

    private final ClientConfig.Execution execution;
    private final WorkloadModel model;
    private final JitWarmupPolicy policy;
    private final PrintStream out;
    private InetAddress bind = InetAddress.getLoopbackAddress();
    private BooleanSupplier cancelled = () -> false;
    private UnaryOperator<Backend> wrap = UnaryOperator.identity();
    private boolean tls;
    private boolean stubResumption;

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong sessions = new AtomicLong();
    private volatile boolean stop;
    private volatile String firstError;
    /** The backend's prepare rule, resolved once its instance exists. */
    private PrepareAhead prepareAhead;

    public JitWarmup(ClientConfig.Execution execution, WorkloadModel model, JitWarmupPolicy policy, PrintStream out) {
        this.execution = execution;
        this.model = model;
        this.policy = policy;
        this.out = out;
    }

    /** How many warm-up stubs this JVM has started (tests: a run with the warm-up off starts none). */
    public static int stubsStarted() {
        return StubServer.startedCount();
    }

    /** The run was stopped (Ctrl-C) during the warm-up: it ends at once. */
    public JitWarmup cancelledBy(BooleanSupplier cancelled) {
        this.cancelled = cancelled;
        return this;
    }

    /** Tests: see what the warm-up asks of its backend (the wrapper must delegate every call). */
    public JitWarmup wrappingBackend(UnaryOperator<Backend> wrap) {
        this.wrap = wrap;
        return this;
    }

    /** Where the stub listens (loopback; tests give an address that cannot be bound). */
    public JitWarmup bindAddress(InetAddress address) {
        this.bind = address;
        return this;
    }

    /**
     * The run's target is HTTPS: warm up over TLS. {@code stubResumption}: whether the stub lets
     * returning clients resume (the run's: on when the client resumes and, for the embedded target,
     * its server allows it), so that the warm-up makes the same kinds of handshakes as the run.
     */
    public JitWarmup overTls(boolean stubResumption) {
        this.tls = true;
        this.stubResumption = stubResumption;
        return this;
    }

    /**
     * Warms up, prints one line and returns the report; never throws for a warm-up that cannot run.
     *
     * @param loads        other paths to warm (the reference probe's), each created against the stub
     * @param deadlineNano the warm-up ends by then at the latest (a shard's start instant), or Long.MAX_VALUE
     */
    public WarmupReport run(List<WarmupLoad.Factory> loads, long deadlineNano) {
        String name = execution.backend().label();
        WarmupReport report;
        if (policy.off()) {
            report = WarmupReport.off(policy, name);
        } else if (JvmFacts.interpretedOnly()) {
            report = WarmupReport.skipped(
                    policy, name, 0, 0, "this JVM runs interpreted only (-Xint): there is nothing to compile");
        } else {
            report = warmUp(name, loads, deadlineNano);
        }
        out.println(report.line());
        return report;
    }

    private WarmupReport warmUp(String name, List<WarmupLoad.Factory> factories, long deadlineNano) {
        long t0 = System.nanoTime();
        StubServer stub;
        try {
            stub = StubServer.start(bind, tls ? Tls.load(null, null, stubResumption) : null);
        } catch (IOException | RuntimeException e) {
            return WarmupReport.skipped(
                    policy, name, 0, 0, "the loopback stub could not start (" + e.getMessage() + ")");
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long compiledBefore = jitTimed ? jit.getTotalCompilationTime() : -1;
        Backend backend = null;
        List<WarmupLoad> loads = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Map<String, AtomicLong> others = new LinkedHashMap<>();
        CountDownLatch flowsDone = null;
        try {
            backend = wrap.apply(Backends.create(execution, stub.base()));
            prepareAhead = PrepareAhead.of(backend);
            for (WarmupLoad.Factory f : factories) {
                try {
                    WarmupLoad l = f.create(stub.base());
                    if (l != null) {
                        loads.add(l);
                    }
                } catch (Exception e) {
                    out.println("warning: JIT warm-up: a measurement hook's path could not be warmed (" + e + ")");
                }
            }
            for (WarmupLoad l : loads) {
                AtomicLong n = others.computeIfAbsent(l.name(), k -> new AtomicLong());
                threads.add(start("rubis-warmup-" + l.name().replace(' ', '-'), () -> drive(l, n), false));
            }
            flowsDone = startDrivers(backend, threads);
            WarmupReport.Outcome outcome = await(jit, jitTimed, t0, deadlineNano);
            stop = true;
            finish(threads, flowsDone);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long compiled = jitTimed ? jit.getTotalCompilationTime() - compiledBefore : -1;
            if (outcome == null) {
                return WarmupReport.skipped(
                        policy,
                        name,
                        requests.get(),
                        seconds,
                        requests.get() + " requests to the stub failed without a success (first: " + firstError + ")");
            }
            Map<String, Long> counts = new LinkedHashMap<>();
            others.forEach((k, v) -> counts.put(k, v.get()));
            WarmupReport.Handshakes handshakes =
                    stub.tls() ? new WarmupReport.Handshakes(stub.fullHandshakes(), stub.resumedHandshakes()) : null;
            return new WarmupReport(
                    policy,
                    outcome,
                    backend.name(),
                    requests.get(),
                    errors.get(),
                    counts,
                    seconds,
                    compiled,
                    "",
                    handshakes);
        } catch (RuntimeException e) {
            stop = true;
            finish(threads, flowsDone);
            return WarmupReport.skipped(
                    policy, name, requests.get(), (System.nanoTime() - t0) / 1e9, "it failed (" + e + ")");
        } finally {
            stop = true;
            for (WarmupLoad l : loads) {
                try {
                    l.close();
                } catch (RuntimeException ignored) {
                    // a load's own connection; the stub closes anyway
                }
            }
            if (backend != null) {
                try {
                    backend.close();
                } catch (RuntimeException ignored) {
                    // the warm-up's own instance; nothing of the run
                }
            }
            stub.close();
        }
    }

    /** Waits for the end of the warm-up; null when every request failed so far. */
    private WarmupReport.Outcome await(CompilationMXBean jit, boolean jitTimed, long t0, long deadlineNano) {
        boolean count = policy.mode() == JitWarmupPolicy.Mode.COUNT;
        long cap = count ? policy.requests() : CAP_REQUESTS;
        long end = Math.min(deadlineNano, t0 + TimeUnit.SECONDS.toNanos(count ? COUNT_CAP_SECONDS : CAP_SECONDS));
        long lastCompiled = jitTimed ? jit.getTotalCompilationTime() : -1;
        long lastChange = System.nanoTime();
        while (true) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return WarmupReport.Outcome.STOPPED;
            }
            long now = System.nanoTime();
            long n = requests.get();
            long failed = errors.get();
            if (failed >= FAILURES_BEFORE_GIVING_UP && failed == n) {
                return null;
            }
            if (n >= cap) {
                return count ? WarmupReport.Outcome.COUNT : WarmupReport.Outcome.CAP;
            }
            if (cancelled.getAsBoolean()) {
                return WarmupReport.Outcome.STOPPED; // a stop of the run cut it: not its cap
            }
            if (now - end >= 0) {
                return WarmupReport.Outcome.CAP;
            }
            if (!count) {
                long compiled = jitTimed ? jit.getTotalCompilationTime() : lastCompiled;
                if (compiled != lastCompiled) {
                    lastCompiled = compiled;
                    lastChange = now;
                }
                if (n >= MIN_REQUESTS && now - lastChange >= TimeUnit.MILLISECONDS.toNanos(QUIET_MS)) {
                    return WarmupReport.Outcome.QUIET;
                }
            }
        }
    }

    private void finish(List<Thread> threads, CountDownLatch flowsDone) {
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
            }
            if (flowsDone != null) {
                flowsDone.await(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Drives the backend as the run's execution model will ({@link ClientConfig.Execution#model()}): event-loop flows,
     * whose end the returned latch counts, or threads of the model's kind, added to {@code threads} (then null).
     */
    private CountDownLatch startDrivers(Backend backend, List<Thread> threads) {
        ExecutionModel model = execution.model();
        if (model == ExecutionModel.EVENT_LOOPS) {
            CountDownLatch flowsDone = new CountDownLatch(FLOWS);
            for (int i = 0; i < FLOWS; i++) {
                new Flow((EventLoopBackend) backend, i, flowsDone).start();
            }
            return flowsDone;
        }
        BlockingBackend blocking = (BlockingBackend) backend;
        for (int i = 0; i < THREADS; i++) {
            int id = i;
            threads.add(start("rubis-warmup-" + i, () -> drive(blocking, id), model == ExecutionModel.VIRTUAL_THREADS));
        }
        return null;
    }

    private static Thread start(String name, Runnable r, boolean virtual) {
        Thread.Builder b = virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true);
        return b.name(name).start(r);
    }

    /** A session of the workload, with its own generator and seed: the run's sessions draw nothing from it. */
    private UserSession session(int worker) {
        return new UserSession(model, new RequestGenerator(model), sessions.getAndIncrement(), 0x5EED_0000L + worker);
    }

    private void count(Reply r) {
        requests.incrementAndGet();
        if (r.failed()) {
            errors.incrementAndGet();
            if (firstError == null) {
                firstError = r.error() == null ? "no page" : r.errorLabel();
            }
        }
    }

    /** A blocking backend's user: sessions back to back, no think time, as ThreadSessions drives them. */
    private void drive(BlockingBackend backend, int worker) {
        Reply r = new Reply();
        long sends = 0;
        while (!stop) {
            UserSession s = session(worker);
            Backend.Session bs = backend.startSession();
            try {
                String path = s.nextPath();
                while (!stop) {
                    prepareEveryOther(bs, sends++);
                    backend.execute(bs, path, r);
                    count(r);
                    UserSession.Next next = s.onReply(r.body, r.failed());
                    r.body = null;
                    if (next == UserSession.Next.END) {
                        break;
                    }
                    path = s.nextPath();
                }
            } finally {
                backend.endSession(bs);
            }
        }
    }

    /**
     * A run prepares most new connections ahead ({@link PrepareAhead}, the think time's last millisecond) and connects
     * the prepared socket in the request's window; a request due at once, or retried, makes its own. The warm-up has no
     * think time, so it prepares before every other send: both paths are compiled, the prepared one being the one most
     * measured requests that open a connection take. A no-op on an open connection, as in a run.
     */
    private void prepareEveryOther(Backend.Session bs, long send) {
        if ((send & 1) == 0 && prepareAhead.enabled()) {
            prepareAhead.prepare(bs);
        }
    }

    /** Another path (the reference probe) on its own thread. */
    private void drive(WarmupLoad l, AtomicLong n) {
        int failures = 0;
        long limit = policy.mode() == JitWarmupPolicy.Mode.COUNT ? policy.requests() : OTHER_PATH_REQUESTS;
        while (!stop && failures < FAILURES_BEFORE_GIVING_UP && n.get() < limit) {
            try {
                l.once();
                n.incrementAndGet();
                failures = 0;
            } catch (Exception e) {
                failures++;
            }
        }
    }

    /** An event-loop session: send, reply callback, a zero-delay timer for the next send, as EventLoopSessions drives them. */
    private final class Flow {
        final EventLoopBackend backend;
        final int worker;
        final CountDownLatch done;
        final Reply reply = new Reply();
        Backend.Session bs;
        ScheduledExecutorService loop;
        UserSession s;
        String path;
        long sends;

        Flow(EventLoopBackend backend, int worker, CountDownLatch done) {
            this.backend = backend;
            this.worker = worker;
            this.done = done;
        }

        void start() {
            newSession();
            loop.execute(this::send);
        }

        private void newSession() {
            s = session(worker);
            bs = backend.startSession();
            loop = backend.loop(bs);
            path = s.nextPath();
        }

        void send() {
            if (stop) {
                backend.endSession(bs);
                done.countDown();
                return;
            }
            try {
                prepareEveryOther(bs, sends++);
                backend.send(bs, path, reply, this::replied);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        private void failed(RuntimeException e) {
            if (firstError == null) {
                firstError = e.toString();
            }
            done.countDown();
        }

        void replied() {
            try {
                next();
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        private void next() {
            count(reply);
            UserSession.Next next = s.onReply(reply.body, reply.failed());
            reply.body = null;
            if (next == UserSession.Next.END) {
                backend.endSession(bs);
                newSession();
            } else {
                path = s.nextPath();
            }
            loop.schedule(this::send, 0, TimeUnit.NANOSECONDS);
        }
    }
}
