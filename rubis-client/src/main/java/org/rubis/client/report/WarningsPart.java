package org.rubis.client.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.text.SummaryLines;

/**
 * What makes the run's figures doubtful: the configuration's warnings, the JVM's, a shard's, and in summary.txt
 * the stationarity judgement's too.
 */
final class WarningsPart implements SummaryPart {

    private final ClientConfig config;
    private final RunResult result;
    /**
     * summary.txt's warnings beyond the configuration's: the stationarity's first, then those only summary.json lists.
     */
    private final List<String> extra = new ArrayList<>();

    /** @param stationarity the stationarity judgement's warning (summary.txt only), or null */
    WarningsPart(ClientConfig config, RunResult result, String stationarity) {
        this.config = config;
        this.result = result;
        if (stationarity != null) {
            extra.add(stationarity);
        }
    }

    @Override
    public void json(ObjectNode root) {
        ArrayNode w = root.putArray("warnings");
        config.warnings().forEach(w::add);
        JvmFacts.warnings(config.users(), config.arrivals() == Arrivals.CLOSED).forEach(w::add);
        shardWarnings().forEach(w::add);
        w.forEach(x -> {
            if (!config.warnings().contains(x.asText())) {
                extra.add(x.asText());
            }
        });
    }

    private List<String> shardWarnings() {
        List<String> w = new ArrayList<>();
        ShardPlan plan = result.shard();
        if (plan.count() > 1) {
            int cap = config.arrival().maxConcurrentSessions();
            if (config.arrivals() == Arrivals.HYBRID && cap > 0) {
                w.add("shard " + plan.index() + " of " + plan.count() + " applied " + plan.capShare(cap)
                        + " of the cap of " + cap
                        + " concurrent sessions: delays and drops by the cap are this shard's, not those of"
                        + " one process");
            }
            if (config.execution().backend().sharesConnections()) {
                w.add("the " + result.backend() + " backend shares connections among the users of one process: over "
                        + plan.count()
                        + " shards the connection counts are not those of one process (dedicated and netty are"
                        + " unaffected)");
            }
        }
        return w;
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        if (!config.warnings().isEmpty() || !extra.isEmpty()) {
            b.append("\nWarnings\n");
            config.warnings().forEach(x -> b.append(SummaryLines.item(x)));
            extra.forEach(x -> b.append(SummaryLines.item(x)));
        }
    }
}
