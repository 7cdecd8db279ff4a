package org.rubis.client.warmup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.report.SummarySection;

/**
 * What the JIT warm-up did, for the console line and the summary ({@code jit_warmup} in summary.json,
 * a block of summary.txt): how many requests against the stub, how long, why it stopped, and how much
 * compilation it triggered; or that it was off, or skipped and why (a skipped warm-up never fails the
 * run, but the run's first requests may then run interpreted).
 *
 * @param setting        the configured setting (auto, off, N)
 * @param outcome        why it ended
 * @param backend        the backend warmed (its classes, not the run's instance)
 * @param requests       backend requests answered by the stub (0 when off or skipped before any)
 * @param errors         of those, failed ones
 * @param others         requests of the other paths warmed (the reference probe), by name
 * @param seconds        wall time of the warm-up
 * @param compilationMs  JIT compilation time spent during it (-1 when the JVM does not report it)
 * @param reason         why it was skipped ("" otherwise)
 * @param tls            the stub's TLS handshakes when the warm-up ran over TLS (an HTTPS target), else null
 */
public record WarmupReport(
        JitWarmupPolicy setting,
        Outcome outcome,
        String backend,
        long requests,
        long errors,
        Map<String, Long> others,
        double seconds,
        long compilationMs,
        String reason,
        Handshakes tls)
        implements SummarySection {

    /** TLS handshakes the stub completed, by kind (the embedded server's rule), so a reader sees which kinds were warmed. */
    public record Handshakes(long full, long resumed) {}

    /** How the warm-up ended. */
    public enum Outcome {
        /** Compilation was quiet after the minimum of requests. */
        QUIET("compilation quiet"),
        /** The cap (requests, seconds, the run's start instant) came first. */
        CAP("cap reached"),
        /** The run was stopped (a signal, the parent's death) during the warm-up: it ended there. */
        STOPPED("stopped with the run"),
        /** The configured number of requests was sent. */
        COUNT("count reached"),
        /** Switched off ({@code off}): the pitfall kept on purpose. */
        OFF("off"),
        /** It could not run (the stub could not start, the requests failed): the run went on without it. */
        SKIPPED("skipped");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static WarmupReport off(JitWarmupPolicy setting, String backend) {
        return new WarmupReport(setting, Outcome.OFF, backend, 0, 0, Map.of(), 0, 0, "", null);
    }

    static WarmupReport skipped(JitWarmupPolicy setting, String backend, long requests, double seconds, String reason) {
        return new WarmupReport(setting, Outcome.SKIPPED, backend, requests, 0, Map.of(), seconds, -1, reason, null);
    }

    /** The one console line. */
    public String line() {
        return switch (outcome) {
            case OFF ->
                "JIT warm-up: off (the first measured requests run interpreted: the JVM pitfall, kept on purpose)";
            case SKIPPED ->
                "warning: JIT warm-up skipped: " + reason
                        + "; the run goes on without it (its first requests may run interpreted)";
            default ->
                String.format(
                        Locale.ROOT,
                        "JIT warm-up: %d requests%s in %.1f s (%s)%s, %s",
                        requests,
                        tlsText(),
                        seconds,
                        backend,
                        othersText(),
                        outcome.text());
        };
    }

    /** " over TLS (N full + M resumed handshakes)", or "" over plain HTTP. */
    private String tlsText() {
        return tls == null ? "" : " over TLS (" + tls.full() + " full + " + tls.resumed() + " resumed handshakes)";
    }

    private String othersText() {
        StringBuilder b = new StringBuilder();
        others.forEach((k, v) -> b.append(" + ").append(v).append(' ').append(k).append(" requests"));
        return b.toString();
    }

    @Override
    public String key() {
        return "jit_warmup";
    }

    @Override
    public JsonNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("setting", setting.label());
        o.put("status", outcome.label());
        o.put("backend", backend);
        o.put("requests", requests);
        o.put("errors", errors);
        ObjectNode other = o.putObject("other_requests");
        others.forEach((k, v) -> other.put(k.replace(' ', '_'), v));
        o.put("seconds", Math.round(seconds * 1000) / 1000.0);
        o.put("compilation_ms", compilationMs);
        if (!reason.isEmpty()) {
            o.put("reason", reason);
        }
        if (tls != null) {
            ObjectNode t = o.putObject("tls");
            t.put("full_handshakes", tls.full());
            t.put("resumed_handshakes", tls.resumed());
        }
        return o;
    }

    @Override
    public String text() {
        String body = switch (outcome) {
            case OFF -> "off: the measured requests start in the interpreter (the JVM pitfall, kept on purpose)";
            case SKIPPED -> "skipped: " + reason;
            default ->
                String.format(
                        Locale.ROOT,
                        "%d requests (%d errors)%s in %.1f s against a loopback stub (%s)%s; %s%s",
                        requests,
                        errors,
                        tlsText(),
                        seconds,
                        backend,
                        othersText(),
                        outcome.text(),
                        compilationMs >= 0 ? ", JIT compiled for " + compilationMs + " ms" : "");
        };
        return "JIT warm-up (" + setting.label() + ")\n  " + body + "\n";
    }
}
