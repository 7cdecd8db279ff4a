package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shards' {@code client_health} added up for the merged summary: CPU, cores and GC summed over the shards' hosts,
 * the longest pause and the peaks the largest of any shard, the CPU by thread role summed when every shard measured
 * it (the verdict: {@link MergedVerdict}).
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
    }

    /** The CPU figures over {@code requests} requests, {@code runRequests} of them in the run phase. */
    void writeCpu(ObjectNode h, long requests, long runRequests) {
        h.put("cpu_mean_cores", MergedStats.round(cpuMean, 3));
        h.put("cpu_peak_cores", MergedStats.round(cpuPeak, 3));
        h.put("cpu_seconds", MergedStats.round(cpuSeconds, 3));
        h.put("cores", cores);
        h.put("cpu_us_per_request", requests == 0 ? 0 : MergedStats.round(cpuSeconds * 1e6 / requests, 1));
        h.put("run_cpu_seconds", MergedStats.round(runCpuSeconds, 3));
        h.put("run_cpu_us_per_request", runRequests == 0 ? 0 : MergedStats.round(runCpuSeconds * 1e6 / runRequests, 1));
        h.put("run_system_cpu_seconds", MergedStats.round(runSystemCpuSeconds, 3));
        h.put(
                "run_system_cpu_us_per_request",
                runRequests == 0 || runSystemCpuSeconds < 0
                        ? -1
                        : MergedStats.round(runSystemCpuSeconds * 1e6 / runRequests, 1));
        if (byThreadEverywhere && !byThread.isEmpty() && runRequests > 0) {
            ObjectNode sec = h.putObject("run_cpu_seconds_by_thread");
            ObjectNode perRequest = h.putObject("run_cpu_us_per_request_by_thread");
            byThread.forEach((k, v) -> {
                sec.put(k, MergedStats.round(v, 3));
                perRequest.put(k, MergedStats.round(v * 1e6 / runRequests, 2));
            });
        }
    }

    /** The GC figures, threads and heap. */
    void writeGcAndMemory(ObjectNode h) {
        h.put("gc_count", gcCount);
        h.put("gc_time_ms", gcTime);
        h.put("gc_pauses", gcPauses);
        h.put("gc_pause_total_ms", gcPauseTotal);
        h.put("gc_pauses_logged", gcPausesLogged);
        h.put("gc_max_pause_ms", gcMax);
        h.put("peak_threads", peakThreads);
        h.put("peak_heap_bytes", peakHeap);
        h.put("max_heap_bytes", maxHeap);
    }
}
