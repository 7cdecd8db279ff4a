package org.rubis.client.assertion;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rubis.format.io.RegularFile;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.schema.Cause;
import org.rubis.format.schema.ClientHealth;
import org.rubis.format.schema.SummaryJson;

/**
 * Checks a run's assertions on its summary.json, the figures the summary publishes (a merged run's for
 * {@code --shards}), and records the outcome there under {@code assertions} and at the end of summary.txt. A run whose
 * figures are not a measurement of the target fails every assertion, whatever its numbers: one that is not
 * {@code complete}, or whose verdict names the client (the figures then measure the client). A verdict that names the
 * ERRORS (more than 1 % of the run phase's requests were errors) voids the response-time assertions the same way: an
 * error reply is usually fast, so those times describe failures as much as service (99 % {@code http-503} replies
 * once passed {@code p99<200ms}); the error share, the throughput and the send lateness are still judged.
 */
public final class AssertionCheck {

    /** One assertion's outcome; {@code actual} is NaN when the summary holds no such figure. */
    public record Result(Assertion assertion, double actual, boolean passed, String why) {}

    private AssertionCheck() {}

    /** The outcome of each assertion on this summary. */
    public static List<Result> evaluate(SummaryJson summary, List<Assertion> assertions) {
        String unusable = unusable(summary);
        String errors = errors(summary);
        List<Result> results = new ArrayList<>();
        for (Assertion a : assertions) {
            double actual = a.metric().read(summary);
            String shown = Double.isNaN(actual) ? "none" : format(actual) + unit(a.metric());
            if (unusable != null) {
                results.add(new Result(a, actual, false, unusable));
            } else if (errors != null && responseTime(a.metric())) {
                results.add(new Result(a, actual, false, errors + " (" + a.metric().label + " was " + shown + ")"));
            } else if (Double.isNaN(actual)) {
                results.add(new Result(
                        a, actual, false, "summary.json holds no " + a.metric().label + " for the run phase"));
            } else {
                boolean ok = a.operator().holds(actual, a.threshold());
                results.add(new Result(a, actual, ok, a.metric().label + " was " + shown));
            }
        }
        return results;
    }

    /** Why the figures are no measurement of the target, or null when they are. */
    static String unusable(SummaryJson summary) {
        if (summary.status() != RunStatus.COMPLETE) {
            return "the run is " + summary.status() + ", not complete: its figures are not a measurement";
        }
        if (causes(summary).contains(Cause.CLIENT)) {
            return "the verdict names the client: its figures measure the client, not the target";
        }
        return null;
    }

    /** Why the response times are no measurement of the service (the verdict names the ERRORS), or null. */
    static String errors(SummaryJson summary) {
        if (!causes(summary).contains(Cause.ERRORS)) {
            return null;
        }
        double share = Metric.ERRORS.read(summary);
        return "the verdict names the ERRORS"
                + (Double.isNaN(share) ? "" : " (" + format(share) + "% of the run phase's requests)")
                + ": its response times describe failures as much as service";
    }

    private static List<Cause> causes(SummaryJson summary) {
        ClientHealth h = summary.clientHealth();
        return h == null || h.causes() == null ? List.of() : h.causes();
    }

    /** A response time of the published clock, which error replies distort; not the client's send lateness. */
    private static boolean responseTime(Metric m) {
        return m.unit == Metric.Unit.TIME && m != Metric.LATENESS_P99;
    }

    /**
     * Evaluates the assertions on the run directory's summary.json and writes their outcome into it (key
     * {@code assertions}) and into summary.txt; returns the outcomes (empty when the run left no summary.json).
     */
    public static List<Result> check(Path dir, List<Assertion> assertions) throws IOException {
        Path json = RunFiles.summaryJson(dir);
        if (!Files.isRegularFile(json)) {
            return List.of();
        }
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode summary = (ObjectNode) mapper.readTree(json.toFile());
        List<Result> results = evaluate(SummaryJson.of(summary), assertions);
        ArrayNode out = summary.putArray("assertions");
        for (Result r : results) {
            ObjectNode o = out.addObject();
            o.put("assertion", r.assertion().text());
            o.put("metric", r.assertion().metric().label);
            if (Double.isNaN(r.actual())) {
                o.putNull("actual");
            } else {
                o.put("actual", r.actual());
            }
            o.put("passed", r.passed());
            o.put("reason", r.why());
        }
        replace(json, mapper.writeValueAsString(summary) + "\n");
        Path text = RunFiles.summaryText(dir);
        if (Files.isRegularFile(text)) {
            replace(text, Files.readString(text, StandardCharsets.UTF_8) + text(results));
        }
        return results;
    }

    /** The outcome in words: a section of summary.txt, and what the run prints. */
    public static String text(List<Result> results) {
        long passed = results.stream().filter(Result::passed).count();
        StringBuilder b =
                new StringBuilder("\nAssertions (run phase): " + passed + " of " + results.size() + " passed\n");
        for (Result r : results) {
            b.append(String.format(
                    Locale.ROOT,
                    "  %-6s %s: %s%n",
                    r.passed() ? "ok" : "FAILED",
                    r.assertion().text(),
                    r.why()));
        }
        return b.toString();
    }

    /** Written beside, then renamed into place: a kill leaves the old file or the new one, never half of one. */
    private static void replace(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(RegularFile.fresh(tmp), content, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("\\.?0+$", "");
    }

    private static String unit(Metric m) {
        return switch (m.unit) {
            case TIME -> " ms";
            case PERCENT -> "%";
            case RATE -> "/s";
        };
    }
}
