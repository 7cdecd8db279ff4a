package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.rubis.format.run.RunStatus;
import org.rubis.format.stats.ErrorShare;

/**
 * The merged run's verdict, judged like one run's: every cause any shard's verdict named (CLIENT, HOST, SERVER,
 * ERRORS) makes the merged run SUSPECT for that cause, each finding with the shard it came from, and the errors are
 * judged once more on the merged run phase ({@link ErrorShare}), as one run's would be. A shard saw only its own host
 * and its own share: two shards SUSPECT because their host was busy cannot add up to a merged OK, and a shard whose
 * client was fine does not hide another's busy host. A merged run that measured nothing is INVALID, as a run is.
 *
 * @param causes           the causes named, in the client's order (summary.json {@code client_health.causes})
 * @param accuracyMeasured whether every shard measured its accuracy on the wire
 * @param text             the verdict paragraph (summary.json {@code client_health.verdict})
 */
record MergedVerdict(List<String> causes, boolean accuracyMeasured, String text) {

    static final String CLIENT = "CLIENT";
    /** The causes a run's verdict can name (rubis-client's {@code Verdict.Cause}), in its order. */
    static final List<String> CAUSES = List.of(CLIENT, "HOST", "SERVER", "ERRORS");

    private static final String ERRORS = "ERRORS";
    /** A verdict's clauses end as summary.txt splits them ({@code SummaryLines.verdict}). */
    private static final Pattern CLAUSE_END = Pattern.compile("; |(?<=\\.) (?=[A-Z])");

    static MergedVerdict of(List<ShardInfo> shards, ErrorShare errors, RunStatus status, String stopReason) {
        Set<String> named = new LinkedHashSet<>();
        List<List<String>> findings = new ArrayList<>();
        CAUSES.forEach(c -> findings.add(new ArrayList<>()));
        boolean accuracy = true;
        for (ShardInfo s : shards) {
            JsonNode h = s.summary().path("client_health");
            accuracy &= h.path("accuracy_measured").asBoolean(false);
            Set<String> causes = new LinkedHashSet<>();
            h.path("causes").forEach(c -> causes.add(c.asText()));
            if (causes.isEmpty() && h.path("saturated").asBoolean()) {
                causes.add(CLIENT); // a shard of a client before causes were written
            }
            named.addAll(causes);
            for (String cause : causes) {
                int k = CAUSES.indexOf(cause);
                List<String> into = findings.get(k < 0 ? CAUSES.size() - 1 : k);
                List<String> clauses = clauses(h.path("verdict").asText(""), cause);
                if (clauses.isEmpty()) {
                    into.add(cause + ": shard " + s.index() + " (see its verdict, client_health.shards)");
                } else {
                    clauses.forEach(c -> into.add(cause + ": shard " + s.index() + ": " + c));
                }
            }
        }
        if (errors.high()) {
            named.add(ERRORS);
            findings.get(CAUSES.indexOf(ERRORS)).add(ERRORS + ": the merged run phase: " + errors.text());
        }
        List<String> causes = new ArrayList<>();
        CAUSES.stream().filter(named::contains).forEach(causes::add);
        named.stream().filter(c -> !CAUSES.contains(c)).forEach(causes::add);
        String accuracyText = accuracy
                ? "Accuracy measured on the wire by every shard: each shard's verdict says how it came out"
                        + " (client_health.shards)."
                : "Accuracy not measured on every shard (no packet capture): the figures above are indicators only.";
        String text;
        if (!status.measured()) {
            text = "INVALID: the run did not measure the target (" + stopReason + ")";
        } else if (causes.isEmpty()) {
            text = "OK: no shard's verdict named a cause (each shard's client, host and server were fine) and the"
                    + " merged run's errors are below the limit. " + accuracyText;
        } else {
            List<String> all = new ArrayList<>();
            findings.forEach(all::addAll);
            text = "SUSPECT: " + String.join("; ", all) + ". " + accuracyText;
        }
        String targetState = errors.targetStateText(); // named apart, blaming no one, as in one run's verdict
        return new MergedVerdict(
                List.copyOf(causes),
                accuracy,
                targetState.isEmpty() ? text : text + " Target state: " + targetState + ".");
    }

    /** The clauses of a shard's verdict that name {@code cause} ({@code CAUSE: ...}), without the cause's name. */
    private static List<String> clauses(String verdict, String cause) {
        int colon = verdict.indexOf(": ");
        List<String> out = new ArrayList<>();
        if (colon < 0) {
            return out;
        }
        for (String clause : CLAUSE_END.split(verdict.substring(colon + 2))) {
            String c = clause.strip();
            if (c.startsWith(cause + ": ")) {
                String rest = c.substring(cause.length() + 2);
                out.add(rest.endsWith(".") ? rest.substring(0, rest.length() - 1) : rest);
            }
        }
        return out;
    }
}
