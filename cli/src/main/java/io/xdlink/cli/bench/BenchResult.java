package io.xdlink.cli.bench;

import static io.xdlink.cli.bench.RendezvousRecords.abbreviate;

/**
 * One row of a run, as both sides print it and as it travels from the client to the server in a RESULT record
 * (doubles in Java's shortest exact form, so both tables are identical to the last digit).
 */
sealed interface BenchResult permits BenchResult.Bw, BenchResult.Lat, BenchResult.LatDuration {

    long size();

    /** The table row, perftest's format. */
    String row();

    /** The figure a ratio compares: average bandwidth, or typical (average in duration mode) latency. */
    double figure();

    /** The RESULT record carrying this row. */
    BenchRecord toRecord();

    record Bw(BwResult r) implements BenchResult {
        public long size() {
            return r.size();
        }

        public String row() {
            return PerftestTable.bwRow(r);
        }

        public double figure() {
            return r.average();
        }

        public BenchRecord toRecord() {
            return BenchRecord.of("RESULT").with("type", "bw").with("size", r.size()).with("iters", r.iterations())
                    .with("peak", r.peak()).with("avg", r.average()).with("rate", r.msgRateMpps())
                    .with("peakm", r.peakMeasured() ? 1 : 0);
        }
    }

    record Lat(LatencyResult r) implements BenchResult {
        public long size() {
            return r.size();
        }

        public String row() {
            return PerftestTable.latencyRow(r);
        }

        public double figure() {
            return r.typical();
        }

        public BenchRecord toRecord() {
            return BenchRecord.of("RESULT").with("type", "lat").with("size", r.size()).with("iters", r.iterations())
                    .with("min", r.min()).with("max", r.max()).with("typ", r.typical()).with("avg", r.average())
                    .with("stdev", r.stdev()).with("p99", r.p99()).with("p999", r.p999());
        }
    }

    record LatDuration(LatencyDurationResult r) implements BenchResult {
        public long size() {
            return r.size();
        }

        public String row() {
            return PerftestTable.latencyDurationRow(r.size(), r.iterations(), r.average(), r.tps());
        }

        public double figure() {
            return r.average();
        }

        public BenchRecord toRecord() {
            return BenchRecord.of("RESULT").with("type", "latd").with("size", r.size())
                    .with("iters", r.iterations()).with("avg", r.average()).with("tps", r.tps());
        }
    }

    /** Reads a RESULT record; the unit is the run's, agreed at SETUP. */
    static BenchResult parse(BenchRecord rec, ReportUnit unit) {
        long size = rec.getLong("size", 1, BenchOptions.MAX_SIZE);
        long iters = rec.getLong("iters", 1, Long.MAX_VALUE);
        return switch (rec.get("type")) {
            case "bw" -> new Bw(new BwResult(size, iters, rec.getDouble("peak"), rec.getDouble("avg"),
                    rec.getDouble("rate"), unit, rec.getLong("peakm", 0, 1) == 1));
            case "lat" -> new Lat(new LatencyResult(size, iters, rec.getDouble("min"), rec.getDouble("max"),
                    rec.getDouble("typ"), rec.getDouble("avg"), rec.getDouble("stdev"), rec.getDouble("p99"),
                    rec.getDouble("p999")));
            case "latd" -> new LatDuration(new LatencyDurationResult(size, iters, rec.getDouble("avg"),
                    rec.getDouble("tps")));
            default -> throw new BenchException("the peer's RESULT record has an unknown type '"
                    + abbreviate(rec.get("type")) + "'");
        };
    }
}
