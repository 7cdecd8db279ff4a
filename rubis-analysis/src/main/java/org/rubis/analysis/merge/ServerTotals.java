package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ground truth of shards that each ran their own embedded server: the servers' stats.json counts added up, so
 * that the merged summary's {@code server} counts what every server saw. A largest-at-once figure cannot be added
 * exactly (the servers' peaks need not coincide): {@code max_concurrent_connections} is their sum, an upper bound,
 * and {@code servers} says that the object covers several.
 */
final class ServerTotals {

    private static final List<String> SUMMED = List.of(
            "requests",
            "error_pages",
            "connections_accepted",
            "current_connections",
            "max_concurrent_connections",
            "probe_requests",
            "probe_connections",
            "tls_full_handshakes",
            "tls_resumed_handshakes");

    private ServerTotals() {}

    static ObjectNode of(List<JsonNode> servers) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("model", servers.get(0).get("model"));
        o.put("servers", servers.size());
        o.put(
                "uptime_ms",
                servers.stream()
                        .mapToLong(s -> s.path("uptime_ms").asLong())
                        .max()
                        .orElse(0));
        for (String k : SUMMED) {
            o.put(k, servers.stream().mapToLong(s -> s.path(k).asLong()).sum());
        }
        ObjectNode rpc = o.putObject("requests_per_connection");
        long connections = 0;
        double weighted = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        Map<Long, Long> histogram = new TreeMap<>();
        for (JsonNode s : servers) {
            JsonNode r = s.path("requests_per_connection");
            long n = 0;
            for (var it = r.path("histogram").fields(); it.hasNext(); ) {
                var e = it.next();
                histogram.merge(Long.parseLong(e.getKey()), e.getValue().asLong(), Long::sum);
                n += e.getValue().asLong();
            }
            if (n > 0) {
                connections += n;
                weighted += r.path("mean").asDouble() * n;
                min = Math.min(min, r.path("min").asLong());
                max = Math.max(max, r.path("max").asLong());
            }
        }
        rpc.put("min", connections == 0 ? 0 : min);
        rpc.put("max", max);
        rpc.put("mean", connections == 0 ? 0 : MergedStats.round(weighted / connections, 3));
        ObjectNode h = rpc.putObject("histogram");
        histogram.forEach((k, v) -> h.put(String.valueOf(k), v));
        o.set("by_interaction", sums(servers, "by_interaction"));
        o.set("faults", sums(servers, "faults"));
        return o;
    }

    private static ObjectNode sums(List<JsonNode> servers, String key) {
        Map<String, Long> m = new TreeMap<>();
        for (JsonNode s : servers) {
            s.path(key).fields().forEachRemaining(e -> {
                if (e.getValue().isNumber()) {
                    m.merge(e.getKey(), e.getValue().asLong(), Long::sum);
                }
            });
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        m.forEach(o::put);
        return o;
    }
}
