package org.rubis.client.report;

import java.util.Locale;

/**
 * What a thread of the client process does, told from its Linux name ({@code /proc/self/task/TID/comm}, the first
 * 15 characters of the Java name; HotSpot names its own threads too). The run phase's CPU is split by role
 * ({@link RunThreadCpu}) so that a reader sees whether a request's CPU goes to sending and reading (event loops or
 * user threads), to the per-request log, or to the JVM itself, without a profiler.
 */
public enum ThreadRole {
    /** Netty's event loops (epoll, NIO, or the busy-polling loop): requests, replies, timers and session logic. */
    EVENT_LOOPS("event loops"),
    /** Emulated users' threads: platform threads per user or session, or the carriers of virtual threads and their think timer. */
    USERS("user threads"),
    /** The run log's writer: formats each record into requests.csv, feeds the statistics, writes the file. */
    LOG_WRITER("log writer"),
    /** HotSpot's JIT compilers: the run's code still being compiled (a short run phase shows a tail of it). */
    JIT("JIT"),
    /** Garbage collection and the VM thread's safepoint work. */
    GC("GC"),
    /** Everything else: the main thread, the health sampler, the probe, HttpClient's own threads, the capture. */
    OTHER("other");

    private final String label;

    ThreadRole(String label) {
        this.label = label;
    }

    /** As printed in the summary. */
    public String label() {
        return label;
    }

    /** The summary.json key. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role of a thread by its Linux name (at most 15 characters). */
    public static ThreadRole of(String comm) {
        if (comm.startsWith("epollEventLoop") || comm.startsWith("nioEventLoop") || comm.startsWith("multiThreadIo")) {
            return EVENT_LOOPS;
        }
        if (comm.startsWith("user-")
                || comm.startsWith("session-")
                || comm.startsWith("ForkJoinPool-")
                || comm.startsWith("rubis-think-tim")) {
            return USERS;
        }
        if (comm.startsWith("run-log-writer")) {
            return LOG_WRITER;
        }
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return JIT;
        }
        if (comm.startsWith("GC Thread")
                || comm.startsWith("G1 ")
                || comm.startsWith("VM Thread")
                || comm.startsWith("ZWorker")
                || comm.startsWith("Shenandoah")
                || comm.startsWith("ZDirector")
                || comm.startsWith("ZUnmapper")) {
            return GC;
        }
        return OTHER;
    }
}
