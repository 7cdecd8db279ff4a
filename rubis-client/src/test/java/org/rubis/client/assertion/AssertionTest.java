package org.rubis.client.assertion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyJson;
import org.rubis.format.stats.LatencyStats;

/** The assertion grammar at its edges, and the rule that unusable figures fail every assertion. */
class AssertionTest {

    private static SummaryJson summary(String status, String causes) throws Exception {
        return SummaryJson.of(new ObjectMapper()
                .readTree("{\"status\":\"" + status + "\",\"throughput_rps\":40.0,"
                        + "\"response_time_ms\":{\"run\":{\"count\":200,\"errors\":2,\"p99\":200.0,\"p99_9\":0.5}},"
                        + "\"client_health\":{\"causes\":[" + causes + "],\"run_send_lateness_ms\":{\"p99\":3.0}}}"));
    }

    private static boolean passes(String assertion, SummaryJson summary) {
        return AssertionCheck.evaluate(summary, Assertion.parseAll(assertion, "--assert"))
                .get(0)
                .passed();
    }

    @Test
    void unitsAreConvertedAndTheBoundIsExclusiveOrInclusiveAsWritten() throws Exception {
        SummaryJson s = summary("complete", "");
        assertFalse(passes("p99<200ms", s), "200 is not below 200");
        assertTrue(passes("p99<=200ms", s));
        assertTrue(passes("p99 <= 0.2s", s), "spaces, seconds");
        assertTrue(passes("p99.9<=500us", s), "0.5 ms");
        assertFalse(passes("p99.9<499us", s));
        assertTrue(passes("errors<=1%", s), "2 of 200");
        assertFalse(passes("errors<1%", s));
        assertTrue(passes("throughput>=40/s", s));
        assertFalse(passes("throughput>40/s", s));
        assertTrue(passes("lateness_p99<5ms", s));
        assertEquals(
                3,
                Assertion.parseAll("p99<1s; errors<1% ;throughput>1/s;", "--assert")
                        .size());
    }

    @Test
    void everyPercentileSummaryJsonPublishesIsAssertableAlsoInK6sSpelling() throws Exception {
        LatencyStats times = new LatencyStats();
        for (int i = 1; i <= 1000; i++) {
            times.record(i * 1_000_000L, false); // 1 .. 1000 ms
        }
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode summary = mapper.createObjectNode().put("status", "complete");
        ObjectNode run = LatencyJson.cell(summary.putObject("response_time_ms").putObject("run"), times);
        List<String> keys = new ArrayList<>();
        run.fieldNames().forEachRemaining(keys::add);
        int percentiles = 0;
        for (String key : keys) {
            if (!key.matches("p[0-9_]+")) {
                continue;
            }
            percentiles++;
            String label = key.replace('_', '.');
            double v = run.get(key).asDouble();
            for (String spelling : List.of(label, "p(" + label.substring(1) + ")", key)) {
                assertTrue(passes(spelling + "<=" + v + "ms", SummaryJson.of(summary)), spelling + " of " + run);
                assertFalse(passes(spelling + "<" + v + "ms", SummaryJson.of(summary)), spelling + " of " + run);
            }
        }
        assertEquals(5, percentiles, run.toString());
        // k6's names of a trend's median and mean, and the minimum, as summary.json holds them.
        assertTrue(passes("med<=" + run.get("p50").asDouble() + "ms", SummaryJson.of(summary)));
        assertFalse(passes("med<" + run.get("p50").asDouble() + "ms", SummaryJson.of(summary)));
        assertTrue(passes("avg>=" + run.get("mean").asDouble() + "ms", SummaryJson.of(summary)));
        assertFalse(passes("avg>" + run.get("mean").asDouble() + "ms", SummaryJson.of(summary)));
        assertTrue(passes("min<=" + run.get("min").asDouble() + "ms", SummaryJson.of(summary)));
        assertFalse(passes("min<" + run.get("min").asDouble() + "ms", SummaryJson.of(summary)));
    }

    @Test
    void figuresThatAreNoMeasurementFailEveryAssertion() throws Exception {
        for (SummaryJson s :
                List.of(summary("partial", ""), summary("failed", ""), summary("complete", "\"CLIENT\""))) {
            AssertionCheck.Result r = AssertionCheck.evaluate(s, Assertion.parseAll("errors<=100%", "--assert"))
                    .get(0);
            assertFalse(r.passed(), s.toString());
        }
        assertTrue(
                passes("errors<=100%", summary("complete", "\"HOST\",\"ERRORS\"")),
                "the host's noise is named, not fatal");
        // A summary whose run phase holds no figures (the records read a whole cell or none).
        SummaryJson noRunPhase = SummaryJson.of(new ObjectMapper()
                .readTree("{\"status\":\"complete\",\"throughput_rps\":40.0,\"response_time_ms\":{},"
                        + "\"client_health\":{\"causes\":[]}}"));
        AssertionCheck.Result missing = AssertionCheck.evaluate(noRunPhase, Assertion.parseAll("max<1s", "--assert"))
                .get(0);
        assertFalse(missing.passed());
        assertEquals("summary.json holds no max for the run phase", missing.why());
    }

    /**
     * A verdict that names the ERRORS voids the response-time bounds: 99 % {@code http-503} replies, fast because they
     * are errors, once passed {@code p99<200ms} and {@code mean<50ms}. The error share, the throughput and the send
     * lateness are still judged on their figures.
     */
    @Test
    void errorsInTheVerdictVoidTheResponseTimeAssertions() throws Exception {
        SummaryJson s = summary("complete", "\"ERRORS\"");
        for (String times : List.of("p99<1s", "p50<1s", "mean<1s", "max<1s", "p99.9<1s")) {
            AssertionCheck.Result r = AssertionCheck.evaluate(s, Assertion.parseAll(times, "--assert"))
                    .get(0);
            assertFalse(r.passed(), times);
            assertTrue(r.why().startsWith("the verdict names the ERRORS (1% of the run phase's requests)"), r.why());
        }
        assertEquals(
                "the verdict names the ERRORS (1% of the run phase's requests): its response times describe failures "
                        + "as much as service (p99 was 200 ms)",
                AssertionCheck.evaluate(s, Assertion.parseAll("p99<1s", "--assert"))
                        .get(0)
                        .why());
        assertTrue(passes("errors<=1%", s));
        assertTrue(passes("throughput>=40/s", s));
        assertTrue(passes("lateness_p99<5ms", s));
        assertTrue(passes("p99<1s", summary("complete", "\"HOST\"")), "another cause leaves the times judged");
    }

    @Test
    void aBadAssertionIsOneLineNamingItAndTheFix() {
        assertEquals(
                "conf.properties:3: client_assertions 'p97<1s': unknown metric p97: summary.json publishes the "
                        + "percentiles p50, p90, p95, p99, p99.9 (also written p(95)); expected one of them",
                assertThrows(
                                ConfigException.class,
                                () -> Assertion.parseAll("p99<1s; p97<1s", "conf.properties:3: client_assertions"))
                        .getMessage());
        assertEquals(
                "--assert 'requests>10/s': unknown metric requests: no run-phase figure of summary.json has that name"
                        + " (served requests per second: throughput); expected one of p50, p90, p95, p99, p99.9, min,"
                        + " max, mean, errors, throughput, lateness_p99 (a percentile also as p(95))",
                assertThrows(ConfigException.class, () -> Assertion.parseAll("requests>10/s", "--assert"))
                        .getMessage());
        assertEquals(
                "--assert 'throughput>40ms': throughput takes a rate in /s, not ms",
                assertThrows(ConfigException.class, () -> Assertion.parseAll("throughput>40ms", "--assert"))
                        .getMessage());
        assertEquals(
                "--assert 'errors<101%': a share is at most 100%",
                assertThrows(ConfigException.class, () -> Assertion.parseAll("errors<101%", "--assert"))
                        .getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> Assertion.parseAll("p99 < 200", "--assert"))
                .getMessage()
                .startsWith("--assert 'p99 < 200': expected METRIC OP VALUE"));
    }
}
