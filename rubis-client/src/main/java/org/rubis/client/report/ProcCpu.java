package org.rubis.client.report;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time from Linux's {@code /proc}, cheaper or finer than what the JDK offers: a process's CPU
 * from one read of {@code /proc/PID/stat} (clock ticks), and this process's threads one by one
 * from {@code /proc/self/task/TID/schedstat} (nanoseconds: the JDK's process CPU time counts
 * 10 ms ticks, too coarse for a one-second window of an idle client). Every figure is -1 or empty
 * where {@code /proc} is missing.
 */
final class ProcCpu {

    /** Linux reports {@code /proc/PID/stat} times in USER_HZ ticks, 100 a second on every architecture. */
    private static final long NS_PER_TICK = 10_000_000L;

    private ProcCpu() {}

    /** User + system CPU of a process in ns (tick resolution), or -1. */
    static long processNs(long pid) {
        long[] t = userSystemTicks(pid);
        return t == null ? -1 : (t[0] + t[1]) * NS_PER_TICK;
    }

    /** System (kernel) CPU of a process in ns (tick resolution), or -1. */
    static long systemNs(long pid) {
        long[] t = userSystemTicks(pid);
        return t == null ? -1 : t[1] * NS_PER_TICK;
    }

    /** utime and stime of {@code /proc/PID/stat}, or null. */
    private static long[] userSystemTicks(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            // after the name: state(3) ... utime(14) stime(15), i.e. index 11 and 12 here
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** One thread of this process: its name and CPU on the run queue so far, ns. */
    record ThreadCpu(String name, long ns) {}

    /** Every thread of this process except the calling one (its reads would be counted), by thread id; empty without /proc. */
    static Map<Long, ThreadCpu> threads() {
        Map<Long, ThreadCpu> m = new HashMap<>();
        long self = selfTid();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    long tid = Long.parseLong(t.getFileName().toString());
                    if (tid == self) {
                        continue;
                    }
                    String sched = Files.readString(t.resolve("schedstat"));
                    long ns = Long.parseLong(sched.substring(0, sched.indexOf(' ')));
                    m.put(tid, new ThreadCpu(Files.readString(t.resolve("comm")).strip(), ns));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return m;
    }

    private static long selfTid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self"))
                    .getFileName()
                    .toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
