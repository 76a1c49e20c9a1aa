package io.xdlink.cli.cluster;

import io.xdlink.cli.UsageException;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.awt.Color;

/**
 * busbw against size for one run and any it is compared with, each with its analytic bound as a dashed line of the
 * same colour: one cable laid over two, a chain over a ring, a refused bond over a clean ring.
 */
final class ClusterPlot {
    private ClusterPlot() {
    }

    static void write(List<ClusterJson.Series> runs, Path png) throws IOException {
        XYChart c = new XYChartBuilder().width(900).height(640).title("Simulated cluster: busbw by size (virtual time)")
                .xAxisTitle("size [bytes]").yAxisTitle("busbw [GB/s]").build();
        c.getStyler().setxAxisTickLabelsFormattingFunction(ClusterPlot::sizeLabel);
        c.getStyler().setPlotGridLinesVisible(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        Color[] colours = {new Color(0x1f77b4), new Color(0xd62728),
            new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
            new Color(0x8c564b)};
        int k = 0;
        for (ClusterJson.Series s : runs) {
            if (s.sizes().isEmpty()) {
                throw new UsageException("nothing to plot for '" + s.label() + "': it has no size above 0");
            }
            double[] x = s.sizes().stream().mapToDouble(v -> Math.log(v[0]) / Math.log(2)).toArray();
            double[] y = s.busbw().stream().mapToDouble(Double::doubleValue).toArray();
            Color colour = colours[k++ % colours.length];
            String name = unique(c, s.label());
            XYSeries line = c.addSeries(name, x, y);
            line.setMarker(SeriesMarkers.CIRCLE);
            line.setLineColor(colour);
            line.setMarkerColor(colour);
            XYSeries bound = c.addSeries(unique(c, name + " bound"), new double[] {x[0], x[x.length - 1]},
                    new double[] {s.boundGbps(), s.boundGbps()});
            bound.setMarker(SeriesMarkers.NONE);
            bound.setLineStyle(SeriesLines.DASH_DASH);
            bound.setLineColor(colour);
        }
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(c, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static String unique(XYChart chart, String label) {
        String name = label;
        for (int i = 2; chart.getSeriesMap().containsKey(name); i++) {
            name = label + " (" + i + ")";
        }
        return name;
    }

    /** Powers of two labelled 8, 1K, 64K, 16M; blank between. */
    static String sizeLabel(double log2) {
        long e = Math.round(log2);
        if (Math.abs(log2 - e) > 1e-6 || e < 0 || e > 62) {
            return "";
        }
        long b = 1L << e;
        return b >= 1L << 30 ? (b >> 30) + "G" : b >= 1L << 20 ? (b >> 20) + "M" : b >= 1L << 10 ? (b >> 10) + "K"
                : Long.toString(b);
    }
}
