package org.rubis.analysis.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.knowm.xchart.style.markers.TriangleUp;

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
     */
    public record Style(int width, int height, int markerSize) {}

    /** The analysis report's charts: wide and low, small markers. */
    public static final Style REPORT = new Style(900, 380, 3);

    /** A value is off scale when it is above the third quartile by more than this many interquartile ranges. */
    private static final double FENCE_IQR = 3;

    private Charts() {}

    static XYChart xy(String title, String x, String y) {
        return xy(REPORT, title, x, y);
    }

    static CategoryChart bars(String title, String x, String y) {
        return bars(REPORT, title, x, y);
    }

    public static XYChart xy(Style style, String title, String x, String y) {
        XYChart c = new XYChartBuilder()
                .width(style.width())
                .height(style.height())
                .title(title)
                .xAxisTitle(x)
                .yAxisTitle(y)
                .build();
        legendBelow(c.getStyler());
        c.getStyler().setMarkerSize(style.markerSize());
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesColor(new Color(230, 230, 230));
        return c;
    }

    public static CategoryChart bars(Style style, String title, String x, String y) {
        CategoryChart c = new CategoryChartBuilder()
                .width(style.width())
                .height(style.height())
                .title(title)
                .xAxisTitle(x)
                .yAxisTitle(y)
                .build();
        legendBelow(c.getStyler());
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        return c;
    }

    /** Legends sit below the plot area, in a row: inside it, they covered a bar or a point. */
    private static void legendBelow(Styler s) {
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setLegendBorderColor(Color.WHITE);
    }

    /** A plotted series' points, by name, for {@link #robustYAxis}. */
    public record Line(String name, List<Double> x, List<Double> y) {}

    /** A value drawn off scale: its series, its x and its y. */
    public record OffScale(String series, double x, double y) {}

    /**
     * A y axis that shows the bulk of the lines' values rather than their outliers: when values lie above the third
     * quartile by more than {@value #FENCE_IQR} interquartile ranges (one 384 ms second among 5 ms ones flattened
     * every line), the axis ends a little above the largest other value and each value beyond it is drawn as a red
     * triangle at the top of the axis, in a series that says so. Returns the values drawn off scale (none: the axis is
     * XChart's own), for the text under the plot.
     */
    static List<OffScale> robustYAxis(XYChart c, List<Line> lines) {
        List<Double> all = new ArrayList<>();
        lines.forEach(l -> all.addAll(l.y()));
        all.removeIf(v -> v == null || v.isNaN());
        if (all.size() < 8) {
            return List.of();
        }
        List<Double> sorted = all.stream().sorted().toList();
        double q1 = sorted.get(sorted.size() / 4);
        double q3 = sorted.get(sorted.size() * 3 / 4);
        double fence = q3 + FENCE_IQR * Math.max(q3 - q1, 0.05 * q3);
        double within = sorted.stream()
                .filter(v -> v <= fence)
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        if (sorted.get(sorted.size() - 1) <= fence || within <= 0) {
            return List.of();
        }
        double top = within * 1.15;
        List<OffScale> off = new ArrayList<>();
        for (Line l : lines) {
            for (int i = 0; i < l.y().size() && i < l.x().size(); i++) {
                Double v = l.y().get(i);
                if (v != null && v > top) {
                    off.add(new OffScale(l.name(), l.x().get(i), v));
                }
            }
        }
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(top);
        List<Double> ox = off.stream().map(OffScale::x).distinct().toList();
        List<Double> oy = ox.stream().map(x -> top).toList();
        XYSeries s = add(c, "off scale (values under the plot)", ox, oy, new OffScaleMarker());
        if (s != null) {
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarkerColor(Color.RED);
        }
        return off;
    }

    /** An upward triangle large enough to see whatever the chart's marker size (XChart's size is per chart). */
    private static final class OffScaleMarker extends TriangleUp {
        @Override
        public void paint(Graphics2D g, double x, double y, int markerSize) {
            super.paint(g, x, y, Math.max(markerSize, 10));
        }
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
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
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

    private static XYSeries add(
            XYChart c, String name, List<? extends Number> x, List<? extends Number> y, Marker marker) {
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
