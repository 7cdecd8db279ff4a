package org.rubis.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.ErrorClass;

/** Errors by class as the summary and the report print them: label and count, not a Java map's {@code {k=v}}. */
class ErrorCountsTest {

    @Test
    void labelsAndCountsInTheMapsOrder() {
        Map<String, Long> byLabel = new LinkedHashMap<>();
        byLabel.put(ErrorClass.label(ErrorClass.HTTP_STATUS, false, 503), 57L);
        byLabel.put(ErrorClass.RESET.label(), 112L);
        assertEquals("http-503 57, reset 112", ErrorClass.counts(byLabel));
        assertEquals("", ErrorClass.counts(Map.of()));
    }
}
