package org.rubis.analysis.report;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
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
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The one XChart code path of the project: the analysis report's charts (PNG data URIs in the HTML)
 * and the reproduction report's figures (PNG files beside reproduction.html) are built and rendered
 * here, each in its own {@link Style}, so a fix to axes, series or rendering reaches both.
 */
public final class Charts {

    /**
     * Size and look of a family of charts.
     *
     * @param width      pixels
     * @param height     pixels
     * @param markerSize marker diameter of marked series, pixels
     * @param barsLegend where bar charts put their legend
     */
    public record Style(int width, int height, int markerSize, Styler.LegendPosition barsLegend) {}

    /** The analysis report's charts: wide and low, small markers. */
    public static final Style REPORT = new Style(900, 380, 3, Styler.LegendPosition.InsideNE);

    private Charts() {}

    static XYChart xy(String title, String x, String y) {
        return xy(REPORT, title, x, y);
    }

    static CategoryChart bars(String title, String x, String y) {
        return bars(REPORT, title, x, y);
    }

    public static XYChart xy(Style style, String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(style.width()).height(style.height()).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setMarkerSize(style.markerSize());
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(230, 230, 230));
        return c;
    }

    public static CategoryChart bars(Style style, String title, String x, String y) {
        CategoryChart c = new CategoryChartBuilder().width(style.width()).height(style.height()).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(style.barsLegend());
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
        add(c, name, xs, ys, SeriesMarkers.NONE);
    }

    /** A line without markers (time series, CDFs, reference lines); nothing when there are no points. */
    public static void addLine(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        add(c, name, x, y, SeriesMarkers.NONE);
    }

    /** A line through circle markers (one point per run); nothing when there are no points. */
    public static void addMarkedLine(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        add(c, name, x, y, SeriesMarkers.CIRCLE);
    }

    /** Unconnected diamond markers (events such as GC pauses); nothing when there are no points. */
    public static void addPoints(XYChart c, String name, List<? extends Number> x, List<? extends Number> y) {
        XYSeries s = add(c, name, x, y, SeriesMarkers.DIAMOND);
        if (s != null) {
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
    }

    private static XYSeries add(XYChart c, String name, List<? extends Number> x, List<? extends Number> y, Marker marker) {
        if (x.isEmpty()) {
            return null;
        }
        XYSeries s = c.addSeries(name, x, y);
        s.setMarker(marker);
        return s;
    }

    /** Writes the chart as the PNG file {@code dir/base.png} and returns that file's name. */
    public static String savePng(Chart<?, ?> chart, Path dir, String base) throws IOException {
        BitmapEncoder.saveBitmap(chart, dir.resolve(base).toString(), BitmapEncoder.BitmapFormat.PNG);
        return base + ".png";
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
