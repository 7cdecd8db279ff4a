package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The start banner gives phase lengths as configured: a 1.5 s run phase was printed as "1 s". */
class RunBannerTest {

    @Test
    void phaseLengthsArePrintedAsGivenNotTruncated() {
        assertEquals("1.5", RunEngine.seconds(1500));
        assertEquals("30", RunEngine.seconds(30_000));
        assertEquals("0", RunEngine.seconds(0));
        assertEquals("0.001", RunEngine.seconds(1));
        assertEquals("600", RunEngine.seconds(600_000));
    }
}
