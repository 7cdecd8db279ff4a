package org.rubis.client.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.IntervalPoint;
import org.rubis.client.report.RunPhaseTotals;
import org.rubis.format.run.Phase;

/**
 * The live feed's JSON, written and read in one place (docs/LIVE.md): one run writes its intervals, a view of shards
 * reads theirs back to add them up. Times in ms, client minus wire in us, rounded to what a page shows.
 */
final class FeedJson {

    private FeedJson() {}

    /**
     * An interval's connections: {@code conn_open} (the client's open at its end, from the kernel's tables; absent when
     * unknown), {@code conn_opened_rps} (opened per second in it) and {@code req_per_conn} (the run's requests so far
     * over the connections opened so far; absent before the first).
     */
    static void connections(ObjectNode o, IntervalPoint p, long open, long opened, double perConnection) {
        if (open >= 0) {
            o.put("conn_open", open);
        }
        o.put("conn_opened_rps", r3(p.seconds() > 0 ? opened / p.seconds() : opened));
        if (!Double.isNaN(perConnection)) {
            o.put("req_per_conn", r3(perConnection));
        }
    }

    /** One interval, with the client minus wire of the requests joined in it (null without a capture). */
    static void point(ObjectNode o, IntervalPoint p, WireFigures.Groups wire, boolean histograms) {
        o.put("seq", p.seq());
        o.put("t", r3(p.t()));
        o.put("s", r3(p.seconds()));
        o.put("phase", p.phase() == null ? "draining" : p.phase().label());
        o.put("requests", p.requests());
        o.put("rps", r3(p.rps()));
        o.put("errors", p.errors());
        ObjectNode byClass = o.putObject("errors_by_class");
        p.errorsByClass().forEach(byClass::put);
        o.put("p50", r3(p.p50Ms()));
        o.put("p90", r3(p.p90Ms()));
        o.put("p99", r3(p.p99Ms()));
        o.put("max", r3(p.maxMs()));
        o.put("late_p99", r3(p.latenessP99Ms()));
        o.put("late_max", r3(p.latenessMaxMs()));
        o.put("active", p.activeSessions());
        o.put("started", p.sessionsStarted());
        HealthSample h = p.health();
        if (h != null) {
            o.put("cpu", r3(h.cpuCores()));
            o.put("heap_mb", r3(h.heapUsedBytes() / 1048576.0));
            o.put("fds", h.openFiles());
        }
        o.put("gc_ms", r3(p.gcPauseMs()));
        if (wire != null) {
            ObjectNode w = o.putObject("wire");
            diff(w.putObject("reused"), wire.reused());
            diff(w.putObject("new"), wire.fresh());
        }
        if (histograms && p.encoded() != null) {
            ObjectNode hist = o.putObject("hist");
            hist.put("response", p.encoded().response());
            hist.put("lateness", p.encoded().lateness());
        }
    }

    /** The run phase's figures so far over {@code seconds} of it. */
    static void runPhase(ObjectNode o, RunPhaseTotals run, double seconds) {
        o.put("requests", run.count());
        o.put("errors", run.errors());
        o.put("seconds", r3(seconds));
        // As the summary: served requests (no error) per second of the run phase, and every request per second.
        o.put("throughput_rps", seconds <= 0 ? 0 : r3((run.count() - run.errors()) / seconds));
        o.put("attempted_rps", seconds <= 0 ? 0 : r3(run.count() / seconds));
        o.put("mean", r3(run.meanMs()));
        o.put("min", r3(run.minMs()));
        o.put("max", r3(run.maxMs()));
        o.put("p50", r3(run.p50Ms()));
        o.put("p90", r3(run.p90Ms()));
        o.put("p99", r3(run.p99Ms()));
        o.put("p99_9", r3(run.p999Ms()));
    }

    static void diff(ObjectNode o, WireFigures.Diff d) {
        o.put("count", d.count());
        o.put("p50", r1(d.p50Us()));
        o.put("p99", r1(d.p99Us()));
        o.put("mean", r1(d.meanUs()));
    }

    /** An interval read back (a shard's): its figures, its histograms encoded. */
    record Read(
            long seq,
            double t,
            double seconds,
            Phase phase,
            long requests,
            long errors,
            Map<String, Long> errorsByClass,
            long active,
            long started,
            double cpu,
            double heapMb,
            double gcMs,
            String response,
            String lateness) {}

    static Read read(JsonNode p) {
        Map<String, Long> byClass = new LinkedHashMap<>();
        p.path("errors_by_class")
                .fields()
                .forEachRemaining(e -> byClass.put(e.getKey(), e.getValue().asLong()));
        JsonNode hist = p.path("hist");
        return new Read(
                p.path("seq").asLong(),
                p.path("t").asDouble(),
                p.path("s").asDouble(),
                Phase.parse(p.path("phase").asText()),
                p.path("requests").asLong(),
                p.path("errors").asLong(),
                byClass,
                p.path("active").asLong(),
                p.path("started").asLong(),
                p.path("cpu").asDouble(0),
                p.path("heap_mb").asDouble(0),
                p.path("gc_ms").asDouble(0),
                hist.path("response").asText(null),
                hist.path("lateness").asText(null));
    }

    /** Three decimals (ms to the microsecond), as the summary rounds. */
    static double r3(double v) {
        return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : 0;
    }

    static double r1(double v) {
        return Double.isFinite(v) ? Math.round(v * 10) / 10.0 : 0;
    }
}
