package org.rubis.format.text;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.rubis.format.schema.SummaryJson;

/** The profile's table in summary.txt: each interval's causes come with the figures that named them. */
class IntervalTableTest {

    private static SummaryJson summary(String runCauses) throws Exception {
        String interval = "{\"index\":%d,\"from_s\":%d,\"to_s\":%d,\"users_planned\":10,\"users_planned_start\":10,"
                + "\"users_planned_end\":10,\"users_achieved\":10,\"users_lag_max\":0,\"lag_max_s\":0,"
                + "\"throughput_rps\":5,\"errors\":0,\"response_time_ms\":{\"p50\":1,\"p99\":2},"
                + "\"stationarity\":{\"verdict\":\"steady\"},\"client_health\":{\"causes\":[%s],\"findings\":[%s]}}";
        return SummaryJson.of(new ObjectMapper()
                .readTree("{\"status\":\"complete\",\"client_health\":{\"causes\":[" + runCauses + "]},"
                        + "\"profile\":{\"file\":\"p.txt\",\"shape\":\"step\",\"unit\":\"users\",\"leave\":\"graceful\","
                        + "\"length_s\":20},\"intervals\":["
                        + String.format(interval, 0, 0, 10, "", "") + ","
                        + String.format(
                                interval,
                                1,
                                10,
                                20,
                                "\"CLIENT\"",
                                "\"CLIENT: p99 send lateness 9.1 ms (> 5 ms) while the host's other load was not to"
                                        + " blame\"")
                        + "]}"));
    }

    @Test
    void anIntervalsCauseIsPrintedWithItsEvidenceAndItsScope() throws Exception {
        StringBuilder b = new StringBuilder();
        IntervalTable.text(summary("\"HOST\""), b);
        String text = b.toString();
        assertTrue(
                text.contains("  interval 1: CLIENT: p99 send lateness 9.1 ms (> 5 ms) while the host's other load was"
                        + " not to blame (the run phase as a whole: not CLIENT, its figures the means over every"
                        + " interval)"),
                text);
        assertFalse(text.contains("interval 0:"), "no cause, no line: " + text);
        StringBuilder same = new StringBuilder();
        IntervalTable.text(summary("\"CLIENT\""), same);
        assertTrue(same.toString().contains("not to blame\n"), "the run names it too: no scope note: " + same);
    }
}
