package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.stats.LatencyJson;
import org.rubis.format.stats.LatencyStats;

/**
 * The merged run's intervals of a load profile (summary.json {@code profile} and {@code intervals[]}, docs/WORKLOAD.md,
 * Load profiles), so that a sharded run's intervals read like one process's. Requests, errors, response times and send
 * lateness come from the merged requests.csv, each line counted in the interval it names (percentiles from every
 * request, never averaged over shards); what no log holds comes from the shards' summaries: the load planned and
 * achieved and the sessions begun, added up (each shard ran its share), the interval's length and longest lag the
 * largest of any shard, and the verdict's indicators and stationarity, which each shard judged on its own share.
 */
final class MergedIntervals {

    private final List<LatencyStats> response = new ArrayList<>();
    private final List<LatencyStats> lateness = new ArrayList<>();

    /** One request of the merged log: counted in the interval its line names (none when empty or absent). */
    void request(CsvStream.Row r, long responseNs, boolean failed, long latenessNs) {
        if (!r.has("interval") || r.get("interval").isEmpty()) {
            return;
        }
        int i = r.getInt("interval");
        if (i < 0) {
            return;
        }
        while (response.size() <= i) {
            response.add(new LatencyStats());
            lateness.add(new LatencyStats());
        }
        response.get(i).record(responseNs, failed);
        lateness.get(i).record(latenessNs, false);
    }

    /**
     * Puts {@code profile} and {@code intervals} into {@code root} when every shard ran the same load profile (the
     * first shard's), with {@code sessionsLeft} sessions cut as their users left; adds a warning when the shards'
     * counts disagree with the merged log's.
     */
    void write(ObjectNode root, List<ShardInfo> shards, long sessionsLeft, List<String> warnings) {
        JsonNode first = shards.get(0).summary();
        if (!first.path("profile").isObject()) {
            return;
        }
        int n = first.path("intervals").size();
        for (ShardInfo s : shards) {
            if (!s.summary()
                            .path("profile")
                            .path("points")
                            .equals(first.path("profile").path("points"))
                    || s.summary().path("intervals").size() != n) {
                warnings.add("shard " + s.index() + " ran another load profile than shard 0: the merged run has no"
                        + " intervals");
                return;
            }
        }
        ObjectNode p = root.putObject("profile");
        p.setAll((ObjectNode) first.path("profile").deepCopy());
        p.put("sessions_left", sessionsLeft);
        boolean users = "users".equals(p.path("unit").asText());
        ArrayNode arr = root.putArray("intervals");
        for (int i = 0; i < n; i++) {
            List<JsonNode> of = new ArrayList<>();
            for (ShardInfo s : shards) {
                of.add(s.summary().path("intervals").get(i));
            }
            interval(arr.addObject(), i, of, users, warnings);
        }
    }

    private void interval(ObjectNode o, int i, List<JsonNode> of, boolean users, List<String> warnings) {
        JsonNode f = of.get(0);
        for (String k : List.of("index", "from_s", "to_s", "line", "mix", "think_scale", "flat")) {
            o.set(k, f.get(k));
        }
        o.put(
                "start_epoch_ns",
                of.stream()
                        .mapToLong(x -> x.path("start_epoch_ns").asLong())
                        .min()
                        .orElse(0));
        o.put(
                "end_epoch_ns",
                of.stream()
                        .mapToLong(x -> x.path("end_epoch_ns").asLong())
                        .max()
                        .orElse(0));
        double seconds = combine(of, "seconds", Math::max);
        known(o, "seconds", seconds);
        String unit = users ? "users" : "rate";
        for (String k : List.of("_planned", "_planned_start", "_planned_end", "_achieved")) {
            known(o, unit + k, combine(of, unit + k, Double::sum));
        }
        if (users) {
            known(o, "users_lag_mean", combine(of, "users_lag_mean", Double::sum));
            o.put("users_lag_max", (long) combine(of, "users_lag_max", Double::sum));
            known(o, "lag_max_s", combine(of, "lag_max_s", Math::max));
        } else {
            o.put("sessions_begun", (long) combine(of, "sessions_begun", Double::sum));
            o.put("sessions_dropped", (long) combine(of, "sessions_dropped", Double::sum));
        }
        LatencyStats rt = i < response.size() ? response.get(i) : new LatencyStats();
        LatencyStats late = i < lateness.size() ? lateness.get(i) : new LatencyStats();
        long shardRequests = (long) combine(of, "requests", Double::sum);
        if (shardRequests != rt.count()) {
            warnings.add("interval " + i + ": " + rt.count() + " requests in the merged log but " + shardRequests
                    + " in the shards' summaries added up (a shard's log lost records or was cut)");
        }
        o.put("requests", rt.count());
        o.put("errors", rt.errors());
        known(o, "throughput_rps", seconds > 0 ? (rt.count() - rt.errors()) / seconds : Double.NaN);
        known(o, "attempted_rps", seconds > 0 ? rt.count() / seconds : Double.NaN);
        LatencyJson.cell(o.putObject("response_time_ms"), rt);
        o.putObject("send_lateness_ms")
                .put("p99", MergedStats.round(late.percentileMs(99), 3))
                .put("max", MergedStats.round(late.maxMs(), 3));
        health(o.putObject("client_health"), of);
        stationarity(o.putObject("stationarity"), of);
    }

    /**
     * The shards' CPU added up, the longest GC pause of any, the causes any shard's verdict named on its samples, and
     * each shard's own figures.
     */
    private static void health(ObjectNode h, List<JsonNode> of) {
        known(h, "cpu_mean_cores", combine(of, "client_health", "cpu_mean_cores", Double::sum));
        h.put("gc_max_pause_ms", (long) combine(of, "client_health", "gc_max_pause_ms", Math::max));
        h.put("samples", (long) combine(of, "client_health", "samples", Double::sum));
        Set<String> causes = new LinkedHashSet<>();
        of.forEach(x -> x.path("client_health").path("causes").forEach(c -> causes.add(c.asText())));
        ArrayNode ca = h.putArray("causes");
        causes.forEach(ca::add);
        ArrayNode findings = h.putArray("findings"); // each shard's, with the figures that named its causes
        for (int i = 0; i < of.size(); i++) {
            for (JsonNode f : of.get(i).path("client_health").path("findings")) {
                findings.add(f.asText() + " (shard " + i + ")");
            }
        }
        ArrayNode per = h.putArray("shards");
        of.forEach(x -> per.add(x.path("client_health")));
    }

    /**
     * Each shard judged its share of a flat interval: the merged verdict is not steady when any shard's was, steady
     * when every shard's was, else not judged.
     */
    private static void stationarity(ObjectNode sj, List<JsonNode> of) {
        boolean any = false;
        boolean all = true;
        List<String> verdicts = new ArrayList<>();
        for (int s = 0; s < of.size(); s++) {
            String v = of.get(s).path("stationarity").path("verdict").asText("not-judged");
            any |= v.equals("not-steady");
            all &= v.equals("steady");
            verdicts.add("shard " + s + " " + v);
        }
        String verdict = any ? "not-steady" : all ? "steady" : "not-judged";
        sj.put("steady", verdict.equals("steady"));
        sj.put("verdict", verdict);
        sj.put("judged_by", "shards");
        sj.put("text", "each shard judged its share: " + String.join(", ", verdicts));
        ArrayNode per = sj.putArray("shards");
        of.forEach(x -> per.add(x.path("stationarity")));
    }

    /** A figure of the shards' intervals combined; NaN when a shard does not know it. */
    private static double combine(List<JsonNode> of, String key, DoubleBinaryOperator op) {
        return combine(of, null, key, op);
    }

    private static double combine(List<JsonNode> of, String object, String key, DoubleBinaryOperator op) {
        double acc = Double.NaN;
        for (JsonNode x : of) {
            JsonNode v = object == null ? x.path(key) : x.path(object).path(key);
            if (!v.isNumber()) {
                return Double.NaN;
            }
            acc = Double.isNaN(acc) ? v.asDouble() : op.applyAsDouble(acc, v.asDouble());
        }
        return acc;
    }

    private static void known(ObjectNode n, String key, double v) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else {
            n.put(key, MergedStats.round(v, 3));
        }
    }
}
