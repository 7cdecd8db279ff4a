package org.rubis.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/**
 * The response-time-over-time plots' y axis: one slow second (384 ms at t = 0 among seconds of 3 to 8 ms) no longer
 * sets the scale; it is returned, named, for the text under the plot; an even series keeps XChart's own axis.
 */
class RobustAxisTest {

    private static List<Double> seconds(int n) {
        List<Double> x = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            x.add((double) i);
        }
        return x;
    }

    @Test
    void oneSlowSecondIsOffScaleAndNamed() {
        List<Double> x = seconds(60);
        List<Double> mean = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            mean.add(i == 0 ? 384.0 : 3 + (i % 5));
            p99.add(i == 0 ? 391.0 : 6 + (i % 3));
        }
        XYChart c = Charts.xy("t", "s", "ms");
        List<Charts.OffScale> off =
                Charts.robustYAxis(c, List.of(new Charts.Line("mean", x, mean), new Charts.Line("p99", x, p99)));
        assertEquals(List.of(new Charts.OffScale("mean", 0, 384), new Charts.OffScale("p99", 0, 391)), off);
        double top = c.getStyler().getYAxisMax();
        assertTrue(top >= 8 && top < 12, "the axis ends above the other seconds' largest value (8): " + top);
        assertEquals(
                1, c.getSeriesMap().get("off scale (values under the plot)").getXData().length, "one mark per second");
    }

    @Test
    void anEvenSeriesKeepsItsAxis() {
        List<Double> x = seconds(30);
        List<Double> y = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            y.add(100.0 + 50 * Math.sin(i));
        }
        XYChart c = Charts.xy("t", "s", "ms");
        assertTrue(Charts.robustYAxis(c, List.of(new Charts.Line("mean", x, y))).isEmpty());
        assertNull(c.getStyler().getYAxisMax());
        assertTrue(c.getSeriesMap().isEmpty());
    }
}
