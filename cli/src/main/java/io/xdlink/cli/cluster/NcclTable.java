package io.xdlink.cli.cluster;

import io.xdlink.cluster.Bound;
import io.xdlink.cluster.ClusterParams;
import io.xdlink.cluster.Collective;
import io.xdlink.cluster.PerfRun;
import io.xdlink.cluster.SimCluster;
import io.xdlink.params.Params;
import io.xdlink.sim.SimCable;
import io.xdlink.sim.SimTopology;

import java.io.PrintWriter;
import java.util.Locale;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * nccl-tests' text output: the settings line, the devices, the two-level column header, one row per size with
 * out-of-place and in-place time, algbw, busbw and #wrong, and the closing "Avg bus bandwidth" line; then
 * xdlink's lines, each starting {@code # xdlink:} so a script reading nccl-tests' rows skips them: the analytic
 * bound, how close the largest size came, the cable that set the pace, the memory each host holds.
 */
final class NcclTable {
    private final PrintWriter out;
    private final Collective collective;
    private final PerfRun run;

    NcclTable(PrintWriter out, Collective collective, PerfRun run) {
        this.out = out;
        this.collective = collective;
        this.run = run;
    }

    void header(SimTopology topo, Params p, boolean realTime) {
        out.printf(Locale.ROOT, "# nThread 1 nGpus 1 minBytes %d maxBytes %d step: %s(factor) warmup iters: %d iters: %d "
                        + "agg iters: 1 validation: %d graph: 0%n", run.minBytes(), run.maxBytes(),
                factorText(run.factor()), run.warmup(), run.iters(), run.check() ? 1 : 0);
        out.println("#");
        out.printf(Locale.ROOT, "# xdlink: %s on a simulated %s, %s; chunk %d bytes, %d requests in flight per "
                        + "connection%n", collective.program(), topo,
                realTime ? "real time (figures depend on this machine)" : "virtual time", p.get(ClusterParams.CHUNK),
                p.get(ClusterParams.INFLIGHT));
        out.println("#");
        out.flush();
    }

    private static String factorText(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }

    void devices(SimCluster cluster) {
        out.println("# Using devices");
        // Every simulated host lives in this one process.
        long pid = ProcessHandle.current().pid();
        for (int h = 0; h < cluster.hostCount(); h++) {
            // Named as the plugin names a device to a peer: no ':', which NCCL's interface lists split on.
            out.printf(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %10s device  0 [sim] xdlink-%s%n", h, pid,
                    "host" + h, String.join(",xdlink-", cluster.neighbours(h).stream().map(n -> "host" + n).toList()));
        }
        for (SimCable c : cluster.cables()) {
            out.printf(Locale.ROOT, "#  %-8s %s <-> %s  %s%s%n", c.name(), c.hostA().name(), c.hostB().name(),
                    c.linkState().map(s -> s.describe()).orElse("down"),
                    c.spec().bonding().bonds() ? "" : " (bond refused)");
        }
        out.println("#");
        out.println("#                                                              out-of-place                       in-place          ");
        out.println("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong");
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ");
        out.flush();
    }

    void row(PerfRun.Row r) {
        StringBuilder notes = new StringBuilder();
        if (r.outOfPlace().error() != null) {
            notes.append("  # out-of-place: ").append(r.outOfPlace().error());
        }
        if (r.inPlace().error() != null) {
            notes.append("  # in-place: ").append(r.inPlace().error());
        }
        out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d%s%s%s%n", r.size(), r.count(), run.type().label(),
                collective.reduces() ? run.op().label() : "none", collective.rooted() ? run.root() : -1,
                measure(r.outOfPlace()), measure(r.inPlace()), notes);
        out.flush();
    }

    private String measure(PerfRun.Measure m) {
        String time = m.timeUs() >= 10_000 ? String.format(Locale.ROOT, "%7.0f", m.timeUs())
                : String.format(Locale.ROOT, "%7.2f", m.timeUs());
        String wrong = !run.check() || m.wrong() < 0 ? "   N/A" : String.format(Locale.ROOT, "%6d", m.wrong());
        return String.format(Locale.ROOT, "  %s  %6.2f  %6.2f  %s", time, m.algbw(), m.busbw(), wrong);
    }

    void footer(PerfRun.Result result, SimCluster.Memory memory, int hosts, double wallSeconds) {
        long wrong = result.wrong();
        out.printf(Locale.ROOT, "# Out of bounds values : %d %s%n", wrong, wrong == 0 ? "OK" : "FAILED");
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %.5g %n", result.averageBusbw());
        out.println("#");
        Bound b = result.bound();
        out.println("# xdlink: analytic bound on busbw: " + b.describe());
        if (!result.rows().isEmpty()) {
            PerfRun.Row last = result.rows().getLast();
            double best = Math.max(last.outOfPlace().busbw(), last.inPlace().busbw());
            out.printf(Locale.ROOT, "# xdlink: at %d bytes busbw reached %.2f GB/s, %.1f%% of the bound%n", last.size(),
                    best, 100 * best / b.gbps());
        }
        for (PerfRun.PullReport p : result.pulls()) {
            var failed = p.hosts().stream().filter(h -> !h.done()).toList();
            out.printf(Locale.ROOT, "# xdlink: %s pulled during the %d-byte run: %s%n", p.cable(), p.size(),
                    failed.isEmpty() ? "no host saw an error (another cable carried on)" : failed.size()
                            + " host(s) did not finish");
            for (var h : failed) {
                out.printf(Locale.ROOT, "# xdlink:   host%d: %s%n", h.host(), h.error());
            }
            out.println("# xdlink: " + p.recovery());
        }
        out.printf(Locale.ROOT, "# xdlink: memory per host: %.1f MiB of FIFO slots and buffers (FIFO %.1f MiB, "
                        + "buffers %.1f MiB)%s%n", memory.total() / 1048576.0, memory.fifoBytes() / 1048576.0,
                memory.bufferBytes() / 1048576.0, processNote(hosts));
        out.printf(Locale.ROOT, "# xdlink: wall time %.1f s%n", wallSeconds);
        out.flush();
    }

    /** The whole process (rails, rings, JVM) shared out over the hosts, where Linux says how big it is. */
    private static String processNote(int hosts) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    double mib = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                    return String.format(Locale.ROOT, "; the process peaked at %.0f MiB resident, %.1f MiB a host",
                            mib, mib / hosts);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no /proc: the process figure is left out.
        }
        return "";
    }
}
