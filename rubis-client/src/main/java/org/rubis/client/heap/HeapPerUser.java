package org.rubis.client.heap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;
import org.rubis.client.engine.RunClock;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.SummarySection;
import org.rubis.format.run.RunFiles;

/**
 * Heap retained per idle user ({@code run --heap-per-user}, used by {@code bench scale}): the live heap
 * with the whole population connected and thinking, minus the live heap of the same JVM once the
 * sessions have ended, divided by the users. Both figures come from a class histogram taken in this
 * JVM (the HotSpot diagnostic command runs a full GC first), so only what survives a full GC counts,
 * and the per-class difference says what each user still holds. The users' histogram is taken 2 s
 * into the down ramp, outside the measured phase. G1's filler arrays (unused space the histogram
 * lists as objects) are left out.
 */
public final class HeapPerUser implements RunObserver {

    /** One class of a histogram: instances and bytes. */
    record Row(String name, long instances, long bytes) {}

    private final int users;
    private volatile long atNano;
    private volatile Thread timer;
    private volatile Long before;
    private volatile Long withUsers;
    private volatile Long afterSessions;
    /** The statistics' histograms' bytes at each of the two histograms (-1 before), taken out of the users' share. */
    private volatile long statsWithUsers = -1;

    private volatile long statsAfterSessions = -1;
    private volatile RunStats stats;
    private volatile String error;

    /** @param users the users connected at the measurement (a closed run's population) */
    public HeapPerUser(int users) {
        this.users = users;
    }

    /**
     * When the users' histogram is taken (System.nanoTime()): 2 s into the down ramp (half-way into
     * a shorter one), outside the measured phase; with no down ramp, 1 s before the end of the run.
     */
    static long usersInstant(long upEndNano, long runEndNano, long endNano) {
        long second = 1_000_000_000L;
        return endNano > runEndNano
                ? runEndNano + Math.min(2 * second, (endNano - runEndNano) / 2)
                : Math.max(upEndNano, runEndNano - second);
    }

    @Override
    public void intervals(RunStats stats) {
        this.stats = stats;
    }

    /** The statistics' histograms' bytes now, or -1 without them. */
    private long statsBytes() {
        RunStats s = stats;
        return s == null ? -1 : s.histogramBytes();
    }

    @Override
    public void clock(RunClock clock) {
        atNano = usersInstant(clock.upEndNano(), clock.runEndNano(), clock.endNano());
    }

    @Override
    public void beforeRun(String baseUrl, Path runDir) {
        before = histogram(RunFiles.heapHistogramBefore(runDir));
        Thread t = Thread.ofPlatform().daemon().name("rubis-heap-per-user").unstarted(() -> {
            try {
                long left = atNano - System.nanoTime();
                if (left > 0) {
                    Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                }
                withUsers = histogram(RunFiles.heapHistogramUsers(runDir));
                statsWithUsers = statsBytes();
            } catch (InterruptedException e) {
                // the run ended before the population was measured
            } catch (RuntimeException e) {
                error = e.toString();
            }
        });
        timer = t;
        t.start();
    }

    @Override
    public void afterRun(Path runDir) throws InterruptedException {
        Thread t = timer;
        if (t != null) {
            t.interrupt();
            t.join();
        }
        try {
            afterSessions = settled(RunFiles.heapHistogramIdle(runDir));
            statsAfterSessions = statsBytes();
        } catch (RuntimeException e) {
            error = e.toString();
        }
    }

    /**
     * The sessions have ended but the backend may still be closing their connections (an event loop
     * runs each close as a task): histograms half a second apart until the live heap stops falling
     * (less than 1 % less than the previous one), at most ten.
     */
    private static long settled(Path save) throws InterruptedException {
        long last = histogram(save);
        for (int i = 0; i < 9; i++) {
            Thread.sleep(500);
            long next = histogram(save);
            boolean fell = next < last * 0.99;
            last = next;
            if (!fell) {
                break;
            }
        }
        return last;
    }

    @Override
    public SummarySection summarySection(Path runDir) {
        Thread t = timer;
        if (t != null) {
            t.interrupt(); // the run ended without afterRun (an error, Ctrl-C): no histogram while the JVM winds down
        }
        ObjectNode j = JsonNodeFactory.instance.objectNode();
        StringBuilder text = new StringBuilder("Heap per idle user (live heap after a full GC):\n");
        Long u = withUsers;
        Long a = afterSessions;
        j.put("users", users);
        if (before != null) {
            j.put("live_bytes_before_run", before);
        }
        if (u == null || a == null) {
            String why = error != null
                    ? error
                    : u == null
                            ? "the run ended before the users' histogram was due"
                            : "no histogram after the sessions ended";
            j.put("not_measured", why);
            text.append("  not measured: ").append(why).append('\n');
            return section(j, text.toString());
        }
        long withTotal = u;
        long afterTotal = a;
        j.put("live_bytes_with_users", withTotal);
        j.put("live_bytes_after_sessions", afterTotal);
        // The statistics' histograms grow as larger times come (the down ramp's first ones too): that growth between
        // the two histograms is the tool's own heap, not what the users held.
        long statsGrowth = statsWithUsers >= 0 && statsAfterSessions >= 0 ? statsAfterSessions - statsWithUsers : 0;
        j.put("statistics_bytes_grown", statsGrowth);
        double perUser = (double) (withTotal - afterTotal + statsGrowth) / users;
        j.put("bytes_per_user", Math.round(perUser));
        text.append(String.format(
                Locale.ROOT,
                "  %d users: %.1f MiB live; after the sessions ended: %.1f MiB; before the run: %.1f MiB%n",
                users,
                withTotal / 1048576.0,
                afterTotal / 1048576.0,
                before == null ? Double.NaN : before / 1048576.0));
        text.append(String.format(
                Locale.ROOT, "  per user: %.0f B%n  largest per-user classes (B/user, instances/user):%n", perUser));
        ArrayNode top = j.putArray("top_classes");
        List<Row> classes;
        try { // read back from the files: parsed in memory, the histograms would have counted themselves
            classes = perUser(
                    parse(Files.readString(RunFiles.heapHistogramUsers(runDir))),
                    parse(Files.readString(RunFiles.heapHistogramIdle(runDir))),
                    12);
        } catch (IOException | RuntimeException e) {
            classes = List.of();
            text.append("    (histograms unreadable: ").append(e).append(")\n");
        }
        for (Row r : classes) {
            ObjectNode o = top.addObject();
            o.put("class", r.name());
            o.put("bytes_per_user", (double) r.bytes() / users);
            o.put("instances_per_user", (double) r.instances() / users);
            text.append(String.format(
                    Locale.ROOT,
                    "    %8.1f %6.2f  %s%n",
                    (double) r.bytes() / users,
                    (double) r.instances() / users,
                    r.name()));
        }
        return section(j, text.toString());
    }

    /** The classes that grew most from {@code after} to {@code with}, as differences (largest first). */
    static List<Row> perUser(Map<String, Row> with, Map<String, Row> after, int limit) {
        List<Row> diff = new ArrayList<>();
        for (Row r : with.values()) {
            if (filler(r.name())) {
                continue;
            }
            Row b = after.get(r.name());
            diff.add(new Row(
                    r.name(),
                    r.instances() - (b == null ? 0 : b.instances()),
                    r.bytes() - (b == null ? 0 : b.bytes())));
        }
        diff.sort(Comparator.comparingLong(Row::bytes).reversed());
        return diff.subList(0, Math.min(limit, diff.size()));
    }

    private static SummarySection section(ObjectNode j, String text) {
        return new SummarySection() {
            @Override
            public String key() {
                return "heap_per_user";
            }

            @Override
            public JsonNode json() {
                return j;
            }

            @Override
            public String text() {
                return text;
            }
        };
    }

    /**
     * A class histogram of this JVM (after a full GC) saved to {@code save}; returns its total bytes.
     * Nothing of it stays in memory, so that the next histogram does not count this one.
     */
    private static long histogram(Path save) {
        String text;
        try {
            text = (String) ManagementFactory.getPlatformMBeanServer()
                    .invoke(
                            new ObjectName("com.sun.management:type=DiagnosticCommand"),
                            "gcClassHistogram",
                            new Object[] {new String[0]},
                            new String[] {String[].class.getName()});
        } catch (Exception e) {
            throw new IllegalStateException("class histogram: " + e, e);
        }
        try {
            Files.writeString(save, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + save + ": " + e, e);
        }
        return total(text);
    }

    /** The bytes of a histogram's objects, G1's filler arrays (free space it lists as objects) left out. */
    static long total(String histogram) {
        return parse(histogram).values().stream()
                .filter(r -> !filler(r.name()))
                .mapToLong(Row::bytes)
                .sum();
    }

    static boolean filler(String className) {
        return className.startsWith("[Ljdk.internal.vm.Filler") || className.startsWith("jdk.internal.vm.Filler");
    }

    /** Rows of {@code GC.class_histogram}'s output: {@code "   1:   instances   bytes  class (module)"}. */
    static Map<String, Row> parse(String histogram) {
        Map<String, Row> rows = new HashMap<>();
        for (String line : histogram.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4
                    && f[0].endsWith(":")
                    && f[1].chars().allMatch(Character::isDigit)
                    && f[2].chars().allMatch(Character::isDigit)) {
                rows.merge(
                        f[3],
                        new Row(f[3], Long.parseLong(f[1]), Long.parseLong(f[2])),
                        (x, y) -> new Row(x.name(), x.instances() + y.instances(), x.bytes() + y.bytes()));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException("class histogram: no rows in the diagnostic command's output");
        }
        return rows;
    }
}
