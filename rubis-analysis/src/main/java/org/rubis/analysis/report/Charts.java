package org.rubis.analysis.report;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Plots with XChart, rendered to PNG and embedded in the report as data URIs. */
public final class Charts {

    static final int WIDTH = 900;
    static final int HEIGHT = 380;

    private Charts() {}

    static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setMarkerSize(3);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(230, 230, 230));
        return c;
    }

    static CategoryChart bars(String title, String x, String y) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        return c;
    }

    /** Adds the CDF of a histogram (ns values) as a line in ms. */
    static void addCdf(XYChart c, String name, Histogram h) {
        addCdf(c, name, h, 0);
    }

    /** A CDF whose values below {@code floorMs} are drawn at the floor (for a logarithmic axis, which cannot show 0). */
    static void addCdf(XYChart c, String name, Histogram h, double floorMs) {
        if (h.getTotalCount() == 0) {
            return;
        }
        List<Double> xs = new java.util.ArrayList<>();
        List<Double> ys = new java.util.ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(5)) {
            xs.add(Math.max(floorMs, v.getValueIteratedTo() / 1e6));
            ys.add(v.getPercentileLevelIteratedTo() / 100.0);
            if (v.getPercentileLevelIteratedTo() >= 99.99) {
                break;
            }
        }
        XYSeries s = c.addSeries(name, xs, ys);
        s.setMarker(SeriesMarkers.NONE);
    }

    static void addLine(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        if (x.isEmpty()) {
            return;
        }
        XYSeries s = c.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
    }

    static void addPoints(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        if (x.isEmpty()) {
            return;
        }
        XYSeries s = c.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.DIAMOND);
    }

    /** The chart as a PNG data URI; charts with no series say so in text instead. */
    static String dataUri(Chart<?, ?> chart) {
        try {
            byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            return "data:image/png;base64," + Base64.getEncoder().encodeToString(png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean empty(Chart<?, ?> chart) {
        return chart.getSeriesMap().isEmpty();
    }
}
