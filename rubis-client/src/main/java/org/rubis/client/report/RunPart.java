package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Locale;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.SummaryJson;

/** The summary's head: how the run ended, what ran against what (target, workload, backend, seed), where and when. */
final class RunPart implements SummaryPart {

    private final ClientConfig config;
    private final RunResult result;
    private final RunOutcome outcome;

    RunPart(ClientConfig config, RunResult result, RunOutcome outcome) {
        this.config = config;
        this.result = result;
        this.outcome = outcome;
    }

    @Override
    public void json(ObjectNode root) {
        root.put("status", outcome.status().label());
        root.put("schema_version", SummaryJson.SCHEMA_VERSION);
        root.put("partial", outcome.partial());
        root.put("stop_reason", outcome.stopReason());
        root.put("started_at", Instant.ofEpochSecond(0, result.startEpochNs()).toString());
        root.put("run_dir", result.dir().toAbsolutePath().toString());
        root.put("properties", config.source());
        root.put("target", config.target());
        root.put("seed", config.seed());
        root.put("write_salt", config.workload().writeSalt());
        root.put("config_sha256", config.configSha256());
        ShardPlan plan = result.shard();
        if (plan.shard()) {
            ObjectNode sh = root.putObject("shard");
            sh.put("index", plan.index());
            sh.put("count", plan.count());
            if (plan.startAt() != null) { // none: a shard of run --shards N stopped before it was given one
                sh.put("start_at", plan.startAt().toString());
                sh.put(
                        "start_at_epoch_ns",
                        plan.startAt().getEpochSecond() * 1_000_000_000L
                                + plan.startAt().getNano());
            }
            if (plan.host() != null) {
                sh.put("host", plan.host());
            }
        }
        ObjectNode clock = root.putObject("clock");
        clock.put("anchor_epoch_ns", result.anchorEpochNs());
        clock.put("anchor_bracket_ns", result.anchorBracketNs());
        clock.put("run_start_epoch_ns", result.runStartEpochNs());
        root.put("backend", result.backend());
        root.put(
                "threads",
                result.execution() == ExecutionModel.EVENT_LOOPS
                        ? "event-loop"
                        : config.execution().threads().label());
        root.put("execution", result.execution().label());
        root.put("arrivals", config.arrivals().label());
        root.put("arrival_process", result.arrivals());
        root.put("users", config.users());
        root.put("users_started", result.usersStarted());
        root.put("transition_table", config.workload().table().name());
        root.put("transition_mode", config.workload().mode().name().toLowerCase(Locale.ROOT));
        root.put("think_scale", config.thinkScale());
        ObjectNode phases = root.putObject("phases_ms");
        phases.put(Phase.UP.label(), config.upRampMs());
        phases.put(Phase.RUN.label(), config.runMs());
        phases.put(Phase.DOWN.label(), config.downRampMs());
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        b.append("RUBiS client run summary\n========================\n");
        line(b, "status", s.status() + (s.partial() ? " (" + s.stopReason() + ")" : ""));
        line(b, "run directory", s.runDir());
        line(
                b,
                "target",
                config.target()
                        + (s.server() != null ? " (embedded " + s.server().model() + " server)" : ""));
        line(b, "workload", s.arrivalProcess() + "; table " + s.transitionTable() + " (" + s.transitionMode() + ")");
        String salt = s.writeSalt() == null || s.writeSalt().isEmpty() ? "none" : s.writeSalt();
        line(b, "backend", s.backend() + ", " + s.execution() + "; seed " + s.seed() + ", write salt " + salt);
    }
}
