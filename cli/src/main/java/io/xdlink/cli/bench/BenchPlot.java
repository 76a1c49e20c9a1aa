package io.xdlink.cli.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.awt.Color;
import java.util.ArrayList;

/**
 * Bandwidth and latency against message size, one series per run, in one PNG: the picture a lab wants to see
 * whether a second cable paid off. Sizes are on a base-2 log axis, as {@code -a} steps them.
 */
public final class BenchPlot {
    private BenchPlot() {
    }

    /**
     * Draws the runs into {@code png}, whose directory must exist (a mistyped directory is not created); runs
     * without bandwidth (or latency) rows leave that panel's series out.
     */
    public static void write(List<BenchReport> runs, Path png) {
        Output.write("the plot", png, png(runs));
    }

    /** The runs drawn as PNG bytes. */
    public static byte[] png(List<BenchReport> runs) {
        if (runs.isEmpty()) {
            throw new BenchException("nothing to plot: no runs given");
        }
        ReportUnit unit = runs.getFirst().unit();
        for (BenchReport r : runs) {
            if (!r.bw().isEmpty() && r.unit() != unit) {
                throw new BenchException("cannot plot " + unit.label() + " and " + r.unit().label()
                        + " runs together; run them all with or all without --report_gbits");
            }
        }
        XYChart bw = chart("Bandwidth", "BW average [" + unit.label() + "]");
        XYChart lat = chart("Latency", "t_typical [usec] (t_avg for -D runs)");
        for (BenchReport r : runs) {
            if (!r.bw().isEmpty()) {
                double[] x = log2(r.bw().stream().mapToDouble(BwResult::size).toArray());
                double[] y = r.bw().stream().mapToDouble(BwResult::average).toArray();
                bw.addSeries(unique(bw, r.label()), x, y).setMarker(SeriesMarkers.CIRCLE);
            }
            if (!r.latency().isEmpty()) {
                double[] x = log2(r.latency().stream().mapToDouble(LatencyResult::size).toArray());
                double[] y = r.latency().stream().mapToDouble(LatencyResult::typical).toArray();
                lat.addSeries(unique(lat, r.label()), x, y).setMarker(SeriesMarkers.DIAMOND);
            }
            if (!r.latencyDuration().isEmpty()) {
                double[] x = log2(r.latencyDuration().stream().mapToDouble(LatencyDurationResult::size).toArray());
                double[] y = r.latencyDuration().stream().mapToDouble(LatencyDurationResult::average).toArray();
                lat.addSeries(unique(lat, r.label() + " (t_avg)"), x, y).setMarker(SeriesMarkers.SQUARE);
            }
        }
        List<XYChart> panels = new ArrayList<>();
        if (!bw.getSeriesMap().isEmpty()) {
            panels.add(bw);
        }
        if (!lat.getSeriesMap().isEmpty()) {
            panels.add(lat);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            BitmapEncoder.saveBitmap(panels, 1, panels.size(), out, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new BenchException("cannot draw the plot: " + e.getMessage());
        }
        return out.toByteArray();
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(760).height(520).title(title)
                .xAxisTitle("message size [bytes]").yAxisTitle(yTitle).build();
        // x is log2(size) on a linear axis, labelled back in bytes: -a steps sizes by powers of two, and XChart's
        // own log axis labels only decades.
        c.getStyler().setxAxisTickLabelsFormattingFunction(BenchPlot::sizeLabel);
        c.getStyler().setPlotGridLinesVisible(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        return c;
    }

    /** The label of tick {@code log2Size}: 2, 64, 1K, 32K, 1M, 8M; blank between powers of two. */
    static String sizeLabel(double log2Size) {
        long e = Math.round(log2Size);
        if (Math.abs(log2Size - e) > 1e-6 || e < 0 || e > 62) {
            return "";
        }
        long b = 1L << e;
        if (b >= 1L << 30) {
            return (b >> 30) + "G";
        }
        if (b >= 1L << 20) {
            return (b >> 20) + "M";
        }
        if (b >= 1L << 10) {
            return (b >> 10) + "K";
        }
        return Long.toString(b);
    }

    private static double[] log2(double[] sizes) {
        double[] x = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            x[i] = Math.log(Math.max(1, sizes[i])) / Math.log(2);
        }
        return x;
    }

    /** XChart refuses two series of one name; a second run of the same label gets a suffix. */
    private static String unique(XYChart chart, String label) {
        String name = label;
        for (int i = 2; chart.getSeriesMap().containsKey(name); i++) {
            name = label + " (" + i + ")";
        }
        return name;
    }
}
