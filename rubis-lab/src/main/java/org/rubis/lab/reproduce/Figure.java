package org.rubis.lab.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rubis.analysis.report.Charts;

/**
 * A plot written next to the report, drawn with rubis-analysis's {@link Charts} (the same code as the
 * analysis report's charts) in the reproduction report's own {@link #STYLE}.
 *
 * @param file    PNG file name, relative to the reproduction directory
 * @param caption what it shows and how to read it
 */
public record Figure(String file, String caption) {

    /** The reproduction report's figures: 820 x 400 pixels, large markers (a few points per line). */
    static final Charts.Style STYLE = new Charts.Style(820, 400, 7);

    /** Writes the chart as {@code dir/file} (PNG) and returns it as a figure of the report. */
    static Figure save(Chart<?, ?> chart, Path dir, String file, String caption) throws IOException {
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        return new Figure(Charts.savePng(chart, dir, base), caption);
    }
}
