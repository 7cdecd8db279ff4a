package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Threads are told apart by their Linux names, which the kernel cuts to 15 characters: the names this process's
 * threads have in /proc (HotSpot's own, Netty's, ours) land in the right role, and the run phase's split counts a
 * thread born in the phase, or a thread id reused by another thread, from zero.
 */
class ThreadRoleTest {

    @Test
    void linuxThreadNamesAsProcShowsThemFallInTheirRoles() {
        Map<String, ThreadRole> names = Map.ofEntries(
                Map.entry("epollEventLoopG", ThreadRole.EVENT_LOOPS),
                Map.entry("nioEventLoopGro", ThreadRole.EVENT_LOOPS),
                Map.entry("multiThreadIoEv", ThreadRole.EVENT_LOOPS),
                Map.entry("user-1234", ThreadRole.USERS),
                Map.entry("session-9876543", ThreadRole.USERS),
                Map.entry("ForkJoinPool-1-w", ThreadRole.USERS),
                Map.entry("rubis-think-tim", ThreadRole.USERS),
                Map.entry("run-log-writer", ThreadRole.LOG_WRITER),
                Map.entry("C2 CompilerThre", ThreadRole.JIT),
                Map.entry("C1 CompilerThre", ThreadRole.JIT),
                Map.entry("GC Thread#0", ThreadRole.GC),
                Map.entry("G1 Conc#0", ThreadRole.GC),
                Map.entry("G1 Refine#0", ThreadRole.GC),
                Map.entry("VM Thread", ThreadRole.GC),
                Map.entry("main", ThreadRole.OTHER),
                Map.entry("client-health", ThreadRole.OTHER),
                Map.entry("Notification Th", ThreadRole.OTHER));
        names.forEach((name, role) -> assertEquals(role, ThreadRole.of(name), name));
    }

    @Test
    void theThreadsOfThisProcessAreNamedAsTheRolesExpect() {
        // HotSpot's own threads exist in every JVM: at least the JIT's and the VM thread, named as matched above.
        Map<Long, ProcCpu.ThreadCpu> now = ProcCpu.threads();
        if (now.isEmpty()) {
            return; // no /proc (not Linux): nothing to check against
        }
        assertEquals(
                true, now.values().stream().anyMatch(t -> ThreadRole.of(t.name()) == ThreadRole.JIT), now.toString());
        assertEquals(true, now.values().stream().anyMatch(t -> t.name().equals("VM Thread")), now.toString());
    }

    @Test
    void aThreadBornInThePhaseOrAReusedIdCountsFromZero() {
        Map<Long, ProcCpu.ThreadCpu> start = Map.of(
                1L,
                new ProcCpu.ThreadCpu("epollEventLoopG", 1_000),
                2L,
                new ProcCpu.ThreadCpu("user-7", 5_000),
                3L,
                new ProcCpu.ThreadCpu("run-log-writer", 100));
        Map<Long, ProcCpu.ThreadCpu> end = Map.of(
                1L,
                new ProcCpu.ThreadCpu("epollEventLoopG", 4_000), // ran 3,000
                2L,
                new ProcCpu.ThreadCpu("ForkJoinPool-1-w", 700), // id 2 reused: a new thread, 700 from zero
                4L,
                new ProcCpu.ThreadCpu("C2 CompilerThre", 250)); // born in the phase; 3 ended (not counted)
        Map<ThreadRole, Long> split = RunThreadCpu.between(start, end);
        assertEquals(3_000L, split.get(ThreadRole.EVENT_LOOPS));
        assertEquals(700L, split.get(ThreadRole.USERS));
        assertEquals(250L, split.get(ThreadRole.JIT));
        assertEquals(0L, split.get(ThreadRole.LOG_WRITER));
        assertEquals(ThreadRole.values().length, split.size(), "every role present");
    }
}
