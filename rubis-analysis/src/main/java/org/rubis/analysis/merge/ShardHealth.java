package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shards' {@code client_health} added up for the merged summary: CPU, cores and GC summed over the shards' hosts,
 * the longest pause and the peaks the largest of any shard, the CPU by thread role summed when every shard measured
 * it, and the shards whose client was the bottleneck.
 */
final class ShardHealth {

    double cpuSeconds;
    double runCpuSeconds;
    /** -1 once a shard did not measure it. */
    double runSystemCpuSeconds;

    double cpuMean;
    double cpuPeak;
    long cores;
    long gcCount;
    long gcTime;
    long gcPauses;
    long gcPauseTotal;
    long gcPausesLogged;
    long gcMax;
    long peakThreads;
    long peakHeap;
    long maxHeap;
    /** The CPU split by thread role: summed when every shard measured it, else left out. */
    final Map<String, Double> byThread = new LinkedHashMap<>();

    boolean byThreadEverywhere = true;
    /** "shard I: its verdict" for each shard whose client was saturated. */
    final List<String> suspects = new ArrayList<>();

    /** Adds shard {@code index}'s client_health. */
    void add(int index, JsonNode x) {
        cpuSeconds += x.path("cpu_seconds").asDouble();
        runCpuSeconds += Math.max(0, x.path("run_cpu_seconds").asDouble());
        double sys = x.path("run_system_cpu_seconds").asDouble(-1);
        runSystemCpuSeconds = runSystemCpuSeconds < 0 || sys < 0 ? -1 : runSystemCpuSeconds + sys;
        JsonNode roles = x.path("run_cpu_seconds_by_thread");
        if (roles.isObject()) {
            roles.fields()
                    .forEachRemaining(
                            e -> byThread.merge(e.getKey(), e.getValue().asDouble(), Double::sum));
        } else {
            byThreadEverywhere = false;
        }
        cpuMean += x.path("cpu_mean_cores").asDouble();
        cpuPeak += x.path("cpu_peak_cores").asDouble();
        cores += x.path("cores").asLong();
        gcCount += x.path("gc_count").asLong();
        gcTime += x.path("gc_time_ms").asLong();
        gcPauses += x.path("gc_pauses").asLong();
        gcPauseTotal += x.path("gc_pause_total_ms").asLong();
        gcPausesLogged += x.path("gc_pauses_logged").asLong(x.path("gc_pauses").asLong()); // older shards: all logged
        gcMax = Math.max(gcMax, x.path("gc_max_pause_ms").asLong());
        peakThreads = Math.max(peakThreads, x.path("peak_threads").asLong());
        peakHeap = Math.max(peakHeap, x.path("peak_heap_bytes").asLong());
        maxHeap = Math.max(maxHeap, x.path("max_heap_bytes").asLong());
        if (x.path("saturated").asBoolean()) {
            suspects.add("shard " + index + ": " + x.path("verdict").asText());
        }
    }
}
