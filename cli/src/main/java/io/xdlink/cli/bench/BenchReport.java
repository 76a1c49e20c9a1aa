package io.xdlink.cli.bench;

import io.xdlink.cli.json.Json;
import io.xdlink.cli.json.JsonReader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One benchmark run as it goes to {@code --json}: perftest's {@code test_info} and {@code results} keys
 * ({@code MsgSize}, {@code n_iterations}, {@code BW_peak}, {@code BW_average}, {@code MsgRate}; latency {@code t_min}
 * ... {@code t_avg}), with one result per size so an {@code -a} run is one file, and xdlink's own link and rails
 * under {@code test_info}. {@code --plot} reads these files back.
 *
 * @param label     the series name in plots (defaults to the test and link)
 * @param testInfo  banner facts: test, device, link, rails
 * @param unit      the bandwidth unit of {@code bw}
 * @param bw        bandwidth rows, in size order
 * @param latency   latency rows, in size order
 * @param latencyDuration duration-mode latency rows ({@code t_avg} and {@code tps_average} only, as perftest)
 */
public record BenchReport(String label, Map<String, String> testInfo, ReportUnit unit, List<BwResult> bw,
                          List<LatencyResult> latency, List<LatencyDurationResult> latencyDuration) {

    public BenchReport {
        testInfo = Map.copyOf(testInfo);
        bw = List.copyOf(bw);
        latency = List.copyOf(latency);
        latencyDuration = List.copyOf(latencyDuration);
    }

    /** A report of one run's rows, whatever kinds they are. */
    static BenchReport of(String label, Map<String, String> testInfo, ReportUnit unit, List<BenchResult> rows) {
        List<BwResult> bw = new ArrayList<>();
        List<LatencyResult> lat = new ArrayList<>();
        List<LatencyDurationResult> latd = new ArrayList<>();
        for (BenchResult r : rows) {
            switch (r) {
                case BenchResult.Bw b -> bw.add(b.r());
                case BenchResult.Lat l -> lat.add(l.r());
                case BenchResult.LatDuration d -> latd.add(d.r());
            }
        }
        return new BenchReport(label, testInfo, unit, bw, lat, latd);
    }

    /** The report as a JSON document. */
    public String toJson() {
        return toJson(null);
    }

    /**
     * The report as a JSON document, with a {@code --baseline raw} run's rows under {@code baseline} ({@code label}
     * and {@code results}, shaped as the run's own) when {@code baseline} is not null.
     */
    public String toJson(BenchReport baseline) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("label", label);
        new TreeMap<>(testInfo).forEach(info::put);
        info.put("unit", unit.label());
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("test_info", info);
        doc.put("results", results());
        if (baseline != null) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("label", baseline.label());
            b.put("results", baseline.results());
            doc.put("baseline", b);
        }
        return Json.format(doc) + "\n";
    }

    private List<Object> results() {
        List<Object> results = new ArrayList<>();
        for (BwResult r : bw) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("MsgSize", r.size());
            m.put("n_iterations", r.iterations());
            m.put("BW_peak", r.peakMeasured() ? r.peak() : null);
            m.put("BW_average", r.average());
            m.put("MsgRate", r.msgRateMpps());
            results.add(m);
        }
        for (LatencyResult r : latency) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("MsgSize", r.size());
            m.put("n_iterations", r.iterations());
            m.put("t_min", r.min());
            m.put("t_max", r.max());
            m.put("t_typical", r.typical());
            m.put("t_avg", r.average());
            m.put("t_stdev", r.stdev());
            m.put("percentile_99", r.p99());
            m.put("percentile_99_9", r.p999());
            results.add(m);
        }
        for (LatencyDurationResult r : latencyDuration) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("MsgSize", r.size());
            m.put("n_iterations", r.iterations());
            m.put("t_avg", r.average());
            m.put("tps_average", r.tps());
            results.add(m);
        }
        return results;
    }

    /**
     * Reads a report written by {@link #toJson}.
     *
     * @param source names the file in error messages
     * @throws BenchException naming the source and what is wrong
     */
    public static BenchReport fromJson(String source, String text) {
        return allFromJson(source, text).getFirst();
    }

    /**
     * The run a file holds and, when it has a {@code baseline}, the baseline run after it, labelled as it was
     * written.
     *
     * @throws BenchException naming the source and what is wrong
     */
    public static List<BenchReport> allFromJson(String source, String text) {
        Object doc;
        try {
            doc = JsonReader.parse(text);
        } catch (JsonReader.JsonException e) {
            throw new BenchException(source + ": not JSON (" + e.getMessage() + ")");
        }
        Map<?, ?> root = map(source, "the document", doc);
        Map<?, ?> info = map(source, "test_info", root.get("test_info"));
        BenchReport run = rows(source, info, root.get("results"), "results");
        if (root.get("baseline") == null) {
            return List.of(run);
        }
        Map<?, ?> b = map(source, "baseline", root.get("baseline"));
        Object label = b.get("label");
        BenchReport raw = rows(source, info, b.get("results"), "baseline.results");
        return List.of(run, new BenchReport(label instanceof String l ? l : run.label() + " (baseline)",
                raw.testInfo(), raw.unit(), raw.bw(), raw.latency(), raw.latencyDuration()));
    }

    private static BenchReport rows(String source, Map<?, ?> info, Object resultsValue, String key) {
        if (!(resultsValue instanceof List<?> results)) {
            throw new BenchException(source + ": '" + key + "' must be an array of result rows");
        }
        String unitLabel = string(source, "test_info.unit", info.get("unit"));
        ReportUnit unit = null;
        for (ReportUnit u : ReportUnit.values()) {
            if (u.label().equals(unitLabel)) {
                unit = u;
            }
        }
        if (unit == null) {
            throw new BenchException(source + ": unknown unit '" + unitLabel + "' (expected MB/sec or Gb/sec)");
        }
        Map<String, String> testInfo = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : info.entrySet()) {
            if (!e.getKey().equals("label") && !e.getKey().equals("unit") && e.getValue() instanceof String s) {
                testInfo.put((String) e.getKey(), s);
            }
        }
        List<BwResult> bw = new ArrayList<>();
        List<LatencyResult> lat = new ArrayList<>();
        List<LatencyDurationResult> latd = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            String where = key + "[" + i + "]";
            Map<?, ?> row = map(source, where, results.get(i));
            long size = whole(source, where + ".MsgSize", row.get("MsgSize"));
            long iters = whole(source, where + ".n_iterations", row.get("n_iterations"));
            if (row.containsKey("BW_average")) {
                Object peak = row.get("BW_peak");
                bw.add(new BwResult(size, iters, peak == null ? 0 : number(source, where + ".BW_peak", peak),
                        number(source, where + ".BW_average", row.get("BW_average")),
                        number(source, where + ".MsgRate", row.get("MsgRate")), unit, peak != null));
            } else if (row.containsKey("t_typical")) {
                lat.add(new LatencyResult(size, iters, number(source, where + ".t_min", row.get("t_min")),
                        number(source, where + ".t_max", row.get("t_max")),
                        number(source, where + ".t_typical", row.get("t_typical")),
                        number(source, where + ".t_avg", row.get("t_avg")),
                        number(source, where + ".t_stdev", row.get("t_stdev")),
                        number(source, where + ".percentile_99", row.get("percentile_99")),
                        number(source, where + ".percentile_99_9", row.get("percentile_99_9"))));
            } else if (row.containsKey("tps_average")) {
                latd.add(new LatencyDurationResult(size, iters, number(source, where + ".t_avg", row.get("t_avg")),
                        number(source, where + ".tps_average", row.get("tps_average"))));
            } else {
                throw new BenchException(source + ": " + where + " is neither a bandwidth nor a latency row");
            }
        }
        Object label = info.get("label");
        return new BenchReport(label instanceof String s ? s : source, testInfo, unit, bw, lat, latd);
    }

    private static Map<?, ?> map(String source, String what, Object v) {
        if (v instanceof Map<?, ?> m) {
            return m;
        }
        throw new BenchException(source + ": " + what + " must be an object");
    }

    private static String string(String source, String what, Object v) {
        if (v instanceof String s) {
            return s;
        }
        throw new BenchException(source + ": " + what + " must be a string");
    }

    private static double number(String source, String what, Object v) {
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw new BenchException(source + ": " + what + " must be a number");
    }

    private static long whole(String source, String what, Object v) {
        if (v instanceof Long l && l >= 0) {
            return l;
        }
        throw new BenchException(source + ": " + what + " must be a whole number of at least 0");
    }
}
