package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.Stationarity;

/**
 * The merged run's {@code stationarity}, judged as one run of the same requests would be: the client's rule
 * ({@link Stationarity}) on the merged log's run-phase windows, its mean response time and the population of every
 * shard, with the think times' moments of all shards weighed by how many each drew. Each shard judged only its own
 * share, and {@code report} falls back to an estimate from the logs when the summary has no ratio, so a merged run
 * without its own judgement read as not steady where each shard was. With a load profile the run phase is judged on
 * its flat intervals ({@link MergedIntervals}), as a run's is.
 */
final class MergedStationarity {

    private MergedStationarity() {}

    /** The merged run's judgement; its warning (not steady, not judged) goes to {@code warnings}. */
    static ObjectNode of(JsonNode root, List<ShardInfo> shards, MergedStats st, List<String> warnings) {
        ObjectNode sj = JsonNodeFactory.instance.objectNode();
        JsonNode first = shards.get(0).summary().path("stationarity");
        Think z = Think.of(shards);
        if (root.path("intervals").isArray() && root.path("profile").isObject()) {
            byIntervals(sj, root.path("intervals"));
        } else {
            Stationarity s = Stationarity.of(
                    "closed".equals(root.path("arrivals").asText())
                            ? root.path("users_started").asDouble()
                            : 0,
                    st.runWindows(root.path("run_seconds").asDouble()),
                    st.runWindowSeconds(),
                    st.byPhase.get(Phase.RUN).meanMs() / 1e3,
                    z.moments());
            sj.put("steady", s.steady());
            sj.put("verdict", s.judgement().label());
            if (!s.judged()) {
                sj.put("not_judged_reason", s.notJudgedReason());
            }
            if (!Double.isNaN(s.littleRatio())) {
                sj.put("little_ratio", MergedStats.round(s.littleRatio(), 4));
                sj.put("little_ratio_se", MergedStats.round(s.littleSe(), 4));
                sj.put("little_low", MergedStats.round(s.littleLow(), 4));
                sj.put("little_high", MergedStats.round(s.littleHigh(), 4));
            }
            sj.put("trend_rps_per_s", MergedStats.round(s.slopePerS(), 4));
            sj.put("trend_ci99_low", MergedStats.round(s.slopeLow(), 4));
            sj.put("trend_ci99_high", MergedStats.round(s.slopeHigh(), 4));
            sj.put("first_half_rps", MergedStats.round(s.firstHalfRps(), 3));
            sj.put("second_half_rps", MergedStats.round(s.secondHalfRps(), 3));
            sj.put("windows", s.windows());
            sj.put("window_s", st.runWindowSeconds());
            sj.put("text", s.describe());
            String warning = s.warning();
            if (warning != null) {
                warnings.add(warning);
            }
        }
        sj.put("mean_think_s", MergedStats.round(z.mean(), 4));
        sj.put("think_count", z.count());
        sj.put("ramp_mode", first.path("ramp_mode").asText(""));
        sj.put("judged_on", "the merged log (every shard's requests, as one run)");
        ArrayNode per = sj.putArray("shards");
        shards.forEach(s -> per.add(s.summary().path("stationarity")));
        return sj;
    }

    /**
     * A load profile's run phase, as a run judges it: steady when every flat interval that could be judged was (and
     * one could), not steady when any was not, else not judged.
     */
    private static void byIntervals(ObjectNode sj, JsonNode intervals) {
        int judged = 0;
        int notSteady = 0;
        for (JsonNode i : intervals) {
            String v = i.path("stationarity").path("verdict").asText("");
            judged += v.equals(Stationarity.Judgement.STEADY.label()) ? 1 : 0;
            notSteady += v.equals(Stationarity.Judgement.NOT_STEADY.label()) ? 1 : 0;
        }
        Stationarity.Judgement j = notSteady > 0
                ? Stationarity.Judgement.NOT_STEADY
                : judged > 0 ? Stationarity.Judgement.STEADY : Stationarity.Judgement.NOT_JUDGED;
        sj.put("steady", j == Stationarity.Judgement.STEADY);
        sj.put("verdict", j.label());
        if (j == Stationarity.Judgement.NOT_JUDGED) {
            sj.put("not_judged_reason", "no flat interval of the load profile could be judged");
        }
        sj.put("judged_by", "intervals");
        sj.put(
                "text",
                (judged + notSteady) + " of " + intervals.size() + " intervals judged, " + notSteady + " not steady");
    }

    /** The run phase's think times over all shards: how many, and their moments weighed by each shard's count. */
    private record Think(long count, double mean, double meanSquare, double meanCube) {

        static Think of(List<ShardInfo> shards) {
            long n = 0;
            double m1 = 0;
            double m2 = 0;
            double m3 = 0;
            boolean moments = true;
            for (ShardInfo s : shards) {
                JsonNode j = s.summary().path("stationarity");
                if (!j.has("think_count")) {
                    // A shard of a client before think counts: its mean, weighed by its run-phase requests.
                    long w = s.summary()
                            .path("response_time_ms")
                            .path(Phase.RUN.label())
                            .path("count")
                            .asLong();
                    n += w;
                    m1 += j.path("mean_think_s").asDouble() * w;
                    moments = false;
                    continue;
                }
                long k = j.path("think_count").asLong();
                if (k == 0) {
                    continue;
                }
                n += k;
                m1 += j.path("think_mean_s").asDouble(j.path("mean_think_s").asDouble()) * k;
                m2 += j.path("think_mean_square_s2").asDouble(Double.NaN) * k;
                m3 += j.path("think_mean_cube_s3").asDouble(Double.NaN) * k;
            }
            return n == 0
                    ? new Think(0, 0, Double.NaN, Double.NaN)
                    : new Think(n, m1 / n, moments ? m2 / n : Double.NaN, moments ? m3 / n : Double.NaN);
        }

        Stationarity.ThinkMoments moments() {
            return count == 0
                    ? Stationarity.ThinkMoments.NONE
                    : new Stationarity.ThinkMoments(mean, meanSquare, meanCube);
        }
    }
}
