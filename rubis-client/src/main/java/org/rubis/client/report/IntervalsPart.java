package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.putKnown;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.LeavePolicy;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.profile.ProfileUnit;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyJson;
import org.rubis.format.stats.Stationarity;
import org.rubis.format.text.IntervalTable;

/**
 * A run with a load profile, interval by interval (docs/WORKLOAD.md, Load profiles): the load planned and achieved
 * (users in the system, or sessions begun per second), throughput, response times, errors, the verdict's indicators
 * (send lateness, the client's CPU and GC, the host's other load, and the causes the verdict names on them), and
 * whether a flat interval was steady. summary.json's {@code profile} and {@code intervals}, a block of summary.txt,
 * and the run phase's stationarity judged on the flat intervals ({@link #judgement()}).
 */
final class IntervalsPart implements SummaryPart {

    private final ClientConfig config;
    private final RunResult result;
    private final RunTotals stats;
    private final HealthFigures health;
    private final LoadProfile profile;
    private final IntervalHealth samples;
    private final List<Stationarity> judged = new ArrayList<>();

    IntervalsPart(ClientConfig config, RunResult result, RunTotals stats, HealthFigures health) {
        this.config = config;
        this.result = result;
        this.stats = stats;
        this.health = health;
        this.profile = config.profile();
        this.samples = new IntervalHealth(result.dir());
        for (int i = 0; i < profile.intervals(); i++) {
            judged.add(profile.flat(i) ? stationarity(i) : null);
        }
    }

    /** Where the run phase as run ends on the run's clock (a stopped run's is earlier than planned). */
    private long untilEpochNs() {
        long[] b = result.intervalStartsEpochNs();
        return Math.min(b[b.length - 1], b[0] + (long) (result.runSeconds() * 1e9));
    }

    private long fromEpochNs(int i) {
        return result.intervalStartsEpochNs()[i];
    }

    private long toEpochNs(int i) {
        return Math.min(result.intervalStartsEpochNs()[i + 1], untilEpochNs());
    }

    private boolean closed() {
        return config.arrivals() == Arrivals.CLOSED;
    }

    private Stationarity stationarity(int i) {
        IntervalStats st = stats.interval(i);
        IntervalLoad load = result.intervals().get(i);
        return Stationarity.of(
                closed() && !Double.isNaN(load.achievedMean()) ? load.achievedMean() : 0,
                stats.runWindows(fromEpochNs(i), toEpochNs(i)),
                stats.runWindowSeconds(),
                st.response.meanMs() / 1e3,
                st.thinkMoments());
    }

    /**
     * The run phase's stationarity, judged on the flat intervals: steady when every one that could be judged was (and
     * at least one could), not steady when any was not, else not judged.
     */
    Stationarity.Judgement judgement() {
        boolean any = false;
        for (Stationarity s : judged) {
            if (s != null && s.judged()) {
                any = true;
                if (!s.steady()) {
                    return Stationarity.Judgement.NOT_STEADY;
                }
            }
        }
        return any ? Stationarity.Judgement.STEADY : Stationarity.Judgement.NOT_JUDGED;
    }

    /** The run phase's stationarity in one line. */
    String describe() {
        int flat = 0;
        int judgedCount = 0;
        List<String> notSteady = new ArrayList<>();
        for (int i = 0; i < judged.size(); i++) {
            Stationarity s = judged.get(i);
            if (s == null) {
                continue;
            }
            flat++;
            if (s.judged()) {
                judgedCount++;
                if (!s.steady()) {
                    notSteady.add(String.valueOf(i));
                }
            }
        }
        String head = "judged per interval of the load profile: " + flat + " of " + judged.size()
                + " intervals meant to be flat, " + judgedCount + " judged";
        if (judgedCount == 0) {
            return head + " (the others too short or with too few requests to judge; see each interval)";
        }
        return head + (notSteady.isEmpty() ? ", all steady" : ", NOT steady: interval " + String.join(", ", notSteady));
    }

    /** The warning when the judgement is not steady or not judged, else null. */
    String warning() {
        return switch (judgement()) {
            case STEADY -> null;
            case NOT_JUDGED ->
                "NOT JUDGED: whether the load profile's flat intervals were steady (" + describe() + "); lengthen them"
                        + " or add load.";
            case NOT_STEADY ->
                "NOT STEADY: a flat interval of the load profile was not steady (" + describe() + "); its averages "
                        + "describe no single load level (summary.json intervals[].stationarity says why).";
        };
    }

    @Override
    public void json(ObjectNode root) {
        ObjectNode p = root.putObject("profile");
        p.put("file", profile.source());
        p.put("shape", profile.shape().label());
        p.put("unit", profile.unit().label());
        if (closed()) {
            p.put("leave", config.leave().policy().label());
            if (config.leave().policy() == LeavePolicy.GRACEFUL) {
                p.put("leave_grace_s", round(config.leave().graceMs() / 1e3, 3));
            }
        }
        p.put("length_s", round(profile.lengthNs() / 1e9, 3));
        p.put("peak", profile.peak());
        p.put("sessions_left", stats.sessionsEnded(e -> e == SessionEnd.LEFT));
        ArrayNode pts = p.putArray("points");
        for (LoadProfile.Point pt : profile.points()) {
            pts.addObject()
                    .put("at_s", round(pt.atNs() / 1e9, 3))
                    .put("value", pt.value())
                    .put("mix", pt.mixName())
                    .put("think_scale", pt.thinkScale())
                    .put("line", pt.line());
        }
        ArrayNode arr = root.putArray("intervals");
        for (int i = 0; i < profile.intervals(); i++) {
            interval(arr.addObject(), i);
        }
    }

    private void interval(ObjectNode o, int i) {
        LoadProfile.Point pt = profile.points().get(i);
        IntervalLoad load = result.intervals().get(i);
        IntervalStats st = stats.interval(i);
        o.put("index", i);
        o.put("from_s", round(profile.startNs(i) / 1e9, 3));
        o.put("to_s", round(profile.endNs(i) / 1e9, 3));
        o.put("line", pt.line());
        o.put("mix", pt.mixName());
        o.put("think_scale", pt.thinkScale());
        o.put("flat", profile.flat(i));
        o.put("start_epoch_ns", fromEpochNs(i));
        o.put("end_epoch_ns", result.intervalStartsEpochNs()[i + 1]);
        o.put("seconds", round(load.seconds(), 3));
        String unit = profile.unit() == ProfileUnit.USERS ? "users" : "rate";
        putKnown(o, unit + "_planned", load.plannedMean(), 3);
        putKnown(o, unit + "_planned_start", load.plannedStart(), 3);
        putKnown(o, unit + "_planned_end", load.plannedEnd(), 3);
        putKnown(o, unit + "_achieved", load.achievedMean(), 3);
        if (closed()) {
            putKnown(o, "users_lag_mean", load.lagMeanUsers(), 3);
            o.put("users_lag_max", load.lagMaxUsers());
            putKnown(o, "lag_max_s", load.lagMaxSeconds(), 3);
        } else {
            o.put("sessions_begun", st.sessionsBegun);
            o.put("sessions_dropped", st.sessionsDropped);
        }
        double seconds = load.seconds();
        long served = st.response.count() - st.response.errors();
        o.put("requests", st.response.count());
        o.put("errors", st.response.errors());
        putKnown(o, "throughput_rps", seconds > 0 ? served / seconds : Double.NaN, 3);
        putKnown(o, "attempted_rps", seconds > 0 ? st.response.count() / seconds : Double.NaN, 3);
        LatencyJson.cell(o.putObject("response_time_ms"), st.response);
        ObjectNode late = o.putObject("send_lateness_ms");
        late.put("p99", round(st.latenessMs(99), 3));
        late.put("max", round(st.maxLatenessNs / 1e6, 3));
        indicators(o, i, st);
        stationarity(o.putObject("stationarity"), i);
    }

    /** The verdict's indicators over the interval, and the causes the verdict's rule names on them. */
    private void indicators(ObjectNode o, int i, IntervalStats st) {
        IntervalHealth.Figures f = samples.within(fromEpochNs(i), toEpochNs(i));
        ObjectNode h = o.putObject("client_health");
        putKnown(h, "cpu_mean_cores", f.cpuCores(), 3);
        putKnown(h, "host_other_cpu_cores", f.otherCores(), 3);
        putKnown(h, "server_cpu_cores", f.serverCores(), 3);
        h.put("gc_max_pause_ms", f.gcMaxPauseMs());
        h.put("samples", f.samples());
        Verdict.Evidence e = new Verdict.Evidence(
                health.cores(),
                f.cpuCores(),
                f.gcMaxPauseMs(),
                st.latenessMs(99),
                health.load().wakeupLateP99Ms(),
                f.otherCores(),
                f.stealCores(),
                f.procsRunning(),
                f.serverCores(),
                health.load().watchesServer());
        ArrayNode causes = h.putArray("causes");
        ArrayNode findings = h.putArray("findings");
        if (f.samples() > 0) {
            Verdict v = Verdict.of(e, null);
            v.causes().forEach(c -> causes.add(c.name()));
            v.findings().forEach(findings::add);
        }
    }

    private void stationarity(ObjectNode sj, int i) {
        Stationarity s = judged.get(i);
        if (s == null) {
            sj.put("steady", false);
            sj.put("verdict", Stationarity.Judgement.NOT_JUDGED.label());
            sj.put("not_judged_reason", "a ramp: not meant to be flat");
            return;
        }
        sj.put("steady", s.steady());
        sj.put("verdict", s.judgement().label());
        if (!s.judged()) {
            sj.put("not_judged_reason", s.notJudgedReason());
        }
        if (!Double.isNaN(s.littleRatio())) {
            sj.put("little_ratio", round(s.littleRatio(), 4));
            sj.put("little_low", round(s.littleLow(), 4));
            sj.put("little_high", round(s.littleHigh(), 4));
        }
        sj.put("trend_rps_per_s", round(s.slopePerS(), 4));
        sj.put("trend_ci99_low", round(s.slopeLow(), 4));
        sj.put("trend_ci99_high", round(s.slopeHigh(), 4));
        sj.put("windows", s.windows());
        sj.put("text", s.describe());
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        IntervalTable.text(s, b);
    }
}
