package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchReportTest {

    static BenchReport oneCable() {
        return new BenchReport("one cable", Map.of("test", "RDMA_Write BW Test", "link", "Gen 3 x1, 20 Gb/s"),
                ReportUnit.GBIT_PER_SEC,
                List.of(new BwResult(2, 5000, 0.01, 0.008, 0.5, ReportUnit.GBIT_PER_SEC, true),
                        new BwResult(65536, 5000, 17.9, 17.2, 0.0328, ReportUnit.GBIT_PER_SEC, true),
                        new BwResult(8388608, 30000, 0, 18.4, 0.00027, ReportUnit.GBIT_PER_SEC, false)),
                List.of(new LatencyResult(2, 1000, 7.39, 12.5, 8.3, 8.33, 0.41, 9.98, 11.02)),
                List.of(new LatencyDurationResult(4, 120000, 8.41, 59453.1)));
    }

    @Test
    void roundTripsThroughPerftestsJsonKeys() {
        BenchReport r = oneCable();
        String json = r.toJson();
        assertThat(json).contains("\"test_info\"", "\"results\"", "\"MsgSize\"", "\"n_iterations\"", "\"BW_peak\"",
                "\"BW_average\"", "\"MsgRate\"", "\"t_typical\"", "\"percentile_99_9\"", "\"tps_average\"");
        BenchReport back = BenchReport.fromJson("one.json", json);
        assertThat(back).isEqualTo(r);
        // A peak perftest did not measure is null, not a zero nobody measured.
        assertThat(json).contains("\"BW_peak\": null");
    }

    @Test
    void badFilesNameTheFileAndTheField() {
        assertThatThrownBy(() -> BenchReport.fromJson("x.json", "{")).isInstanceOf(BenchException.class)
                .hasMessageStartingWith("x.json: not JSON");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json", "[]")).hasMessage("x.json: the document must be an object");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json", "{\"test_info\":{\"unit\":\"Gb/sec\"},\"results\":{}}"))
                .hasMessageContaining("'results' must be an array");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json", "{\"test_info\":{\"unit\":\"furlongs\"},\"results\":[]}"))
                .hasMessageContaining("unknown unit 'furlongs'");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json",
                "{\"test_info\":{\"unit\":\"Gb/sec\"},\"results\":[{\"MsgSize\":-1,\"n_iterations\":1,\"BW_average\":1}]}"))
                .hasMessageContaining("results[0].MsgSize");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json",
                "{\"test_info\":{\"unit\":\"Gb/sec\"},\"results\":[{\"MsgSize\":1,\"n_iterations\":1}]}"))
                .hasMessageContaining("neither a bandwidth nor a latency row");
        assertThatThrownBy(() -> BenchReport.fromJson("x.json",
                "{\"test_info\":{\"unit\":\"Gb/sec\"},\"results\":[{\"MsgSize\":1,\"n_iterations\":1,\"BW_average\":\"fast\"}]}"))
                .hasMessageContaining("results[0].BW_average must be a number");
    }

    @Test
    void plotsEveryRunIntoOnePng(@TempDir Path dir) throws Exception {
        BenchReport two = new BenchReport("two cables", Map.of(), ReportUnit.GBIT_PER_SEC,
                List.of(new BwResult(2, 5000, 0.02, 0.016, 1.0, ReportUnit.GBIT_PER_SEC, true),
                        new BwResult(65536, 5000, 35.0, 34.1, 0.065, ReportUnit.GBIT_PER_SEC, true)),
                List.of(), List.of());
        Path png = dir.resolve("bw.png");
        BenchPlot.write(List.of(oneCable(), two), png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).isNotNull();
        // Two panels side by side: bandwidth (both runs) and latency (the run that has latency rows).
        assertThat(image.getWidth()).isEqualTo(2 * 760);
        assertThat(image.getHeight()).isEqualTo(520);
    }

    @Test
    void sizeAxisIsLabelledInPowersOfTwo() {
        assertThat(BenchPlot.sizeLabel(1)).isEqualTo("2");
        assertThat(BenchPlot.sizeLabel(10)).isEqualTo("1K");
        assertThat(BenchPlot.sizeLabel(15)).isEqualTo("32K");
        assertThat(BenchPlot.sizeLabel(23)).isEqualTo("8M");
        assertThat(BenchPlot.sizeLabel(2.5)).isEmpty();
        assertThat(BenchPlot.sizeLabel(-1)).isEmpty();
    }

    @Test
    void refusesToMixUnits(@TempDir Path dir) {
        BenchReport mib = new BenchReport("mib", Map.of(), ReportUnit.MIB_PER_SEC,
                List.of(new BwResult(2, 5000, 1, 1, 1, ReportUnit.MIB_PER_SEC, true)), List.of(), List.of());
        assertThatThrownBy(() -> BenchPlot.write(List.of(oneCable(), mib), dir.resolve("x.png")))
                .isInstanceOf(BenchException.class).hasMessageContaining("cannot plot Gb/sec and MB/sec");
        assertThatThrownBy(() -> BenchPlot.write(List.of(), dir.resolve("x.png")))
                .isInstanceOf(BenchException.class).hasMessageContaining("nothing to plot");
    }
}
