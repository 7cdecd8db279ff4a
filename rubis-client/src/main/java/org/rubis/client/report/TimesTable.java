package org.rubis.client.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumMap;
import java.util.Map;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.LatencyStats;

/**
 * A response-time table per phase and state built from times that did not come through the run's
 * live statistics (the wire's per-request times), in the shape of summary.json's {@code response_time_ms}.
 */
public final class TimesTable {

    private final Map<Phase, Map<Interaction, LatencyStats>> cells = new EnumMap<>(Phase.class);

    public void add(Phase phase, Interaction state, long ns, boolean error) {
        cells.computeIfAbsent(phase, p -> new EnumMap<>(Interaction.class))
                .computeIfAbsent(state, s -> new LatencyStats())
                .record(ns, error);
    }

    public ObjectNode toJson() {
        ObjectNode rt = JsonNodeFactory.instance.objectNode();
        Map<Interaction, LatencyStats> byState = new EnumMap<>(Interaction.class);
        LatencyStats all = new LatencyStats();
        for (Phase p : Phase.values()) {
            LatencyStats total = new LatencyStats();
            Map<Interaction, LatencyStats> m = cells.getOrDefault(p, Map.of());
            m.values().forEach(total::add);
            ObjectNode ph = SummaryFormat.cell(rt.putObject(p.label()), total);
            ObjectNode states = ph.putObject("states");
            for (Interaction i : Interaction.values()) {
                LatencyStats c = m.get(i);
                if (c != null && c.count() > 0) {
                    SummaryFormat.cell(states.putObject(i.label()), c);
                    byState.computeIfAbsent(i, k -> new LatencyStats()).add(c);
                }
            }
            all.add(total);
        }
        ObjectNode o = SummaryFormat.cell(rt.putObject("overall"), all);
        ObjectNode states = o.putObject("states");
        byState.forEach((i, c) -> SummaryFormat.cell(states.putObject(i.label()), c));
        return rt;
    }
}
