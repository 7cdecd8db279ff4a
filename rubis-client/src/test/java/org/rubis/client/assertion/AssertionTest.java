package org.rubis.client.assertion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

/** The assertion grammar at its edges, and the rule that unusable figures fail every assertion. */
class AssertionTest {

    private static JsonNode summary(String status, String causes) throws Exception {
        return new ObjectMapper()
                .readTree("{\"status\":\"" + status + "\",\"throughput_rps\":40.0,"
                        + "\"response_time_ms\":{\"run\":{\"count\":200,\"errors\":2,\"p99\":200.0,\"p99_9\":0.5}},"
                        + "\"client_health\":{\"causes\":[" + causes + "],\"run_send_lateness_ms\":{\"p99\":3.0}}}");
    }

    private static boolean passes(String assertion, JsonNode summary) {
        return AssertionCheck.evaluate(summary, Assertion.parseAll(assertion, "--assert"))
                .get(0)
                .passed();
    }

    @Test
    void unitsAreConvertedAndTheBoundIsExclusiveOrInclusiveAsWritten() throws Exception {
        JsonNode s = summary("complete", "");
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
    void figuresThatAreNoMeasurementFailEveryAssertion() throws Exception {
        for (JsonNode s : List.of(summary("partial", ""), summary("failed", ""), summary("complete", "\"CLIENT\""))) {
            AssertionCheck.Result r = AssertionCheck.evaluate(s, Assertion.parseAll("errors<=100%", "--assert"))
                    .get(0);
            assertFalse(r.passed(), s.toString());
        }
        assertTrue(
                passes("errors<=100%", summary("complete", "\"HOST\",\"ERRORS\"")),
                "the host's noise is named, not fatal");
        AssertionCheck.Result missing = AssertionCheck.evaluate(
                        summary("complete", ""), Assertion.parseAll("max<1s", "--assert"))
                .get(0);
        assertFalse(missing.passed());
        assertEquals("summary.json holds no max for the run phase", missing.why());
    }

    @Test
    void aBadAssertionIsOneLineNamingItAndTheFix() {
        assertEquals(
                "conf.properties:3: client_assertions 'p95<1s': unknown metric p95 (p95 is not among the percentiles "
                        + "summary.json publishes); expected one of p50, p90, p99, p99.9, max, mean, errors, throughput, "
                        + "lateness_p99",
                assertThrows(
                                ConfigException.class,
                                () -> Assertion.parseAll("p99<1s; p95<1s", "conf.properties:3: client_assertions"))
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
