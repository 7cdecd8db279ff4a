package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.Stationarity;

/** Whether the run phase was steady ({@link Stationarity}): the trend, the halves, Little's law for a closed run. */
final class StationarityPart implements SummaryPart {

    private final ClientConfig config;
    private final RunTotals stats;
    private final Stationarity st;
    /** With a load profile: the run phase is judged on its flat intervals instead. */
    private final IntervalsPart intervals;

    StationarityPart(ClientConfig config, RunResult result, RunTotals stats, IntervalsPart intervals) {
        this.config = config;
        this.stats = stats;
        this.intervals = intervals;
        this.st = Stationarity.of(
                config.arrivals() == Arrivals.CLOSED ? result.usersStarted() : 0,
                stats.runWindows(result.runSeconds()),
                stats.runWindowSeconds(),
                stats.phaseTotal(Phase.RUN).meanMs() / 1e3,
                stats.runThinkMoments());
    }

    /** The warning the judgement gives (not steady, or not judged), or null. */
    String warning() {
        return intervals != null ? intervals.warning() : st.warning();
    }

    @Override
    public void json(ObjectNode root) {
        ObjectNode sj = root.putObject("stationarity");
        if (intervals != null) {
            Stationarity.Judgement j = intervals.judgement();
            sj.put("steady", j == Stationarity.Judgement.STEADY);
            sj.put("verdict", j.label());
            if (j == Stationarity.Judgement.NOT_JUDGED) {
                sj.put("not_judged_reason", "no flat interval of the load profile could be judged");
            }
            sj.put("judged_by", "intervals");
            sj.put("mean_think_s", round(stats.meanRunThinkSeconds(), 4));
            sj.put("ramp_mode", config.rampMode().label());
            sj.put("text", intervals.describe());
            return;
        }
        sj.put("steady", st.steady());
        sj.put("verdict", st.judgement().label());
        if (!st.judged()) {
            sj.put("not_judged_reason", st.notJudgedReason());
        }
        if (!Double.isNaN(st.littleRatio())) {
            sj.put("little_ratio", round(st.littleRatio(), 4));
            sj.put("little_ratio_se", round(st.littleSe(), 4));
            sj.put("little_low", round(st.littleLow(), 4));
            sj.put("little_high", round(st.littleHigh(), 4));
        }
        sj.put("mean_think_s", round(stats.meanRunThinkSeconds(), 4));
        thinkMoments(sj);
        sj.put("trend_rps_per_s", round(st.slopePerS(), 4));
        sj.put("trend_ci99_low", round(st.slopeLow(), 4));
        sj.put("trend_ci99_high", round(st.slopeHigh(), 4));
        sj.put("first_half_rps", round(st.firstHalfRps(), 3));
        sj.put("second_half_rps", round(st.secondHalfRps(), 3));
        sj.put("windows", st.windows());
        sj.put("ramp_mode", config.rampMode().label());
        sj.put("text", st.describe());
    }

    /**
     * The run phase's think times unrounded (how many, their mean square and cube) and the windows' length: what a
     * merge of shards needs to judge the merged log as one run ({@code Stationarity.of}, rubis-analysis merge).
     */
    private void thinkMoments(ObjectNode sj) {
        Stationarity.ThinkMoments z = stats.runThinkMoments();
        sj.put("think_count", stats.runThinkCount());
        if (!Double.isNaN(z.meanSquare())) {
            sj.put("think_mean_s", z.mean());
            sj.put("think_mean_square_s2", z.meanSquare());
            sj.put("think_mean_cube_s3", z.meanCube());
        }
        sj.put("window_s", stats.runWindowSeconds());
    }

    /**
     * The verdict in words, then the figures ({@link Stationarity#describe} already says "not judged (why)" when not
     * judged).
     */
    @Override
    public void text(SummaryJson s, StringBuilder b) {
        if (intervals != null) {
            String prefix = switch (intervals.judgement()) {
                case STEADY -> "yes: ";
                case NOT_JUDGED -> "not judged: ";
                case NOT_STEADY -> "NO: ";
            };
            line(b, "run phase steady", prefix + intervals.describe());
            return;
        }
        String prefix = switch (st.judgement()) {
            case STEADY -> "yes: ";
            case NOT_JUDGED -> "";
            case NOT_STEADY -> "NO: ";
        };
        line(b, "run phase steady", prefix + st.describe());
    }
}
