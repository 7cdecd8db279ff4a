package org.rubis.client.reproduce;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's plots (XChart, as rubis-analysis's report), written as PNG files beside reproduction.html. */
final class Plots {

    static final int WIDTH = 820;
    static final int HEIGHT = 400;

    private Plots() {}

    static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setMarkerSize(7);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(230, 230, 230));
        return c;
    }

    static CategoryChart bars(String title, String x, String y) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        return c;
    }

    /** A line with markers (one point per run). */
    static void points(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        if (x.isEmpty()) {
            return;
        }
        XYSeries s = c.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    /** A line without markers (time series, CDFs, reference lines). */
    static void line(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        if (x.isEmpty()) {
            return;
        }
        XYSeries s = c.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
    }

    /** Writes the chart as {@code dir/file} (PNG) and returns it as a figure of the report. */
    static Figure save(Chart<?, ?> chart, Path dir, String file, String caption) throws IOException {
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        BitmapEncoder.saveBitmap(chart, dir.resolve(base).toString(), BitmapEncoder.BitmapFormat.PNG);
        return new Figure(base + ".png", caption);
    }
}
