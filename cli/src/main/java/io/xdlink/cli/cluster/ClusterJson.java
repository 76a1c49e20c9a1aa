package io.xdlink.cli.cluster;

import io.xdlink.cli.UsageException;
import io.xdlink.cli.json.Json;
import io.xdlink.cli.json.JsonReader;
import io.xdlink.cluster.Collective;
import io.xdlink.cluster.PerfRun;
import io.xdlink.cluster.SimCluster;
import io.xdlink.sim.SimTopology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster run as JSON ({@code --json}), and what {@code --compare} reads back of one: its label, its bound, and
 * busbw by size. A file that is not such a result is refused with one line naming what is wrong.
 */
final class ClusterJson {
    /** The largest file --compare reads: results are a few kilobytes. */
    static final long MAX_BYTES = 4L << 20;

    private ClusterJson() {
    }

    /** One run for a plot: busbw (the better of out-of-place and in-place) by size, and the bound. */
    record Series(String label, String program, double boundGbps, List<long[]> sizes, List<Double> busbw,
                  PerfRun.Result result, SimTopology topology, String link) {
    }

    static Series series(String label, Collective c, SimTopology topo, String link, PerfRun.Result r) {
        List<long[]> sizes = new ArrayList<>();
        List<Double> bw = new ArrayList<>();
        for (PerfRun.Row row : r.rows()) {
            if (row.size() > 0) {
                sizes.add(new long[] {row.size()});
                bw.add(Math.max(row.outOfPlace().busbw(), row.inPlace().busbw()));
            }
        }
        return new Series(label, c.program(), r.bound().gbps(), sizes, bw, r, topo, link);
    }

    static void write(Path file, Series s, int hosts, SimCluster.Memory memory) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("program", s.program());
        doc.put("label", s.label());
        doc.put("hosts", hosts);
        doc.put("topology", s.topology().shape().label());
        doc.put("link", s.link());
        doc.put("clock", "virtual");
        Map<String, Object> bound = new LinkedHashMap<>();
        bound.put("busbw_gbps", s.boundGbps());
        bound.put("cables", s.result().bound().cables());
        bound.put("link", s.result().bound().link());
        bound.put("uniform", s.result().bound().uniform());
        doc.put("bound", bound);
        List<Object> rows = new ArrayList<>();
        for (PerfRun.Row r : s.result().rows()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("size", r.size());
            row.put("count", r.count());
            row.put("out_of_place", measure(r.outOfPlace()));
            row.put("in_place", measure(r.inPlace()));
            rows.add(row);
        }
        doc.put("rows", rows);
        doc.put("avg_busbw_gbps", s.result().averageBusbw());
        doc.put("wrong", s.result().wrong());
        doc.put("memory_per_host_bytes", memory.total());
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, Json.format(doc) + "\n");
    }

    private static Map<String, Object> measure(PerfRun.Measure m) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("time_us", m.timeUs());
        o.put("algbw_gbps", m.algbw());
        o.put("busbw_gbps", m.busbw());
        o.put("wrong", m.wrong());
        if (m.error() != null) {
            o.put("error", m.error());
        }
        return o;
    }

    /** Reads back what {@link #write} wrote, enough to plot it. */
    static Series read(Path file) {
        Object doc;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new UsageException("--compare " + file + ": larger than " + MAX_BYTES + " bytes; not a cluster"
                        + " result");
            }
            doc = JsonReader.parse(Files.readString(file));
        } catch (IOException e) {
            throw new UsageException("--compare " + file + ": cannot read it: " + e.getMessage());
        } catch (JsonReader.JsonException e) {
            throw new UsageException("--compare " + file + ": not JSON: " + e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> m) || !(m.get("rows") instanceof List<?> rows)
                || !(m.get("label") instanceof String label) || !(m.get("bound") instanceof Map<?, ?> bound)
                || !(bound.get("busbw_gbps") instanceof Number b)) {
            throw new UsageException("--compare " + file + ": not an xdlink cluster result (it needs label, bound "
                    + "and rows; write one with --json)");
        }
        List<long[]> sizes = new ArrayList<>();
        List<Double> bw = new ArrayList<>();
        for (Object o : rows) {
            if (!(o instanceof Map<?, ?> row) || !(row.get("size") instanceof Number size)
                    || !(row.get("out_of_place") instanceof Map<?, ?> oop)
                    || !(oop.get("busbw_gbps") instanceof Number ob)
                    || !(row.get("in_place") instanceof Map<?, ?> ip)
                    || !(ip.get("busbw_gbps") instanceof Number ib)) {
                throw new UsageException("--compare " + file + ": a row lacks size or busbw");
            }
            if (size.longValue() > 0) {
                sizes.add(new long[] {size.longValue()});
                bw.add(Math.max(ob.doubleValue(), ib.doubleValue()));
            }
        }
        String program = m.get("program") instanceof String p ? p : "";
        return new Series(label, program, b.doubleValue(), sizes, bw, null, null, null);
    }
}
