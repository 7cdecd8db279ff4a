package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The run phase's CPU by thread role: what counts between the two snapshots, and when the split is not measured. */
class RunThreadCpuTest {

    private static ProcCpu.ThreadCpu t(String name, long ns) {
        return new ProcCpu.ThreadCpu(name, ns);
    }

    @Test
    void onlyTheTimeBetweenTheSnapshotsCountsAndAReusedIdStartsFromZero() {
        Map<Long, ProcCpu.ThreadCpu> start = Map.of(
                1L,
                t("epollEventLoopGroup-2-1", 1_000),
                2L,
                t("run-log-writer", 500),
                3L,
                t("user-7", 9_000),
                4L,
                t("C2 CompilerThre", 100));
        Map<Long, ProcCpu.ThreadCpu> end = Map.of(
                1L,
                t("epollEventLoopGroup-2-1", 4_000), // ran 3,000
                2L,
                t("run-log-writer", 700), // ran 200
                // 3 ended during the phase: its CPU is not here (the summary shows it as the process's remainder)
                4L,
                t("user-12", 250), // id 4 reused by a user thread born in the phase: 250 from zero, not 250 - 100
                5L,
                t("GC Thread#0", 40)); // born in the phase
        Map<ThreadRole, Long> m = RunThreadCpu.between(start, end);
        assertEquals(3_000L, m.get(ThreadRole.EVENT_LOOPS));
        assertEquals(200L, m.get(ThreadRole.LOG_WRITER));
        assertEquals(250L, m.get(ThreadRole.USERS));
        assertEquals(40L, m.get(ThreadRole.GC));
        assertEquals(0L, m.get(ThreadRole.JIT), "the compiler's id went to another thread");
        assertEquals(0L, m.get(ThreadRole.OTHER));
    }

    @Test
    void aThreadsCpuInThePhaseIsWhatTheJvmCountsForIt() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs /proc");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong cpuNs = new AtomicLong();
        Thread burner = new Thread(
                () -> {
                    started.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    long c0 = mx.getCurrentThreadCpuTime();
                    long x = 0;
                    while (mx.getCurrentThreadCpuTime() - c0 < 300_000_000L) { // 0.3 s of its own CPU
                        x += x * 31 + 7;
                    }
                    cpuNs.set(mx.getCurrentThreadCpuTime() - c0 + (x == 42 ? 1 : 0));
                    done.countDown();
                    try {
                        Thread.sleep(60_000); // alive at the phase's end
                    } catch (InterruptedException e) {
                        // the test is over
                    }
                },
                "run-log-writer-test");
        burner.setDaemon(true);
        burner.start();
        started.await();
        RunThreadCpu cpu = new RunThreadCpu();
        cpu.markStart(Thread.activeCount());
        go.countDown();
        done.await();
        cpu.markEnd();
        burner.interrupt();
        double writer = cpu.seconds().get(ThreadRole.LOG_WRITER);
        // schedstat and the JVM's thread CPU clock both count the thread's time on a CPU: equal but for the reads'
        // timing
        assertEquals(cpuNs.get() / 1e9, writer, 0.05, "the log writer's role holds the thread's CPU");
    }

    @Test
    void aPhaseStartedWithTooManyThreadsIsNotSplit() {
        RunThreadCpu cpu = new RunThreadCpu();
        cpu.markStart(RunThreadCpu.MAX_THREADS + 1);
        cpu.markEnd();
        assertTrue(cpu.seconds().isEmpty(), "not measured: " + cpu.seconds());
        RunThreadCpu few = new RunThreadCpu();
        few.markStart(RunThreadCpu.MAX_THREADS);
        few.markEnd();
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs /proc");
        assertEquals(
                ThreadRole.values().length, few.seconds().size(), "at the limit it is measured, every role present");
    }
}
