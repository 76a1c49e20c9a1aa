package io.xdlink.cli.cluster;

import io.xdlink.cli.UsageException;
import io.xdlink.cluster.ClusterConfig;
import io.xdlink.cluster.ClusterParams;
import io.xdlink.cluster.ClusterPlan;
import io.xdlink.cluster.Collective;
import io.xdlink.cluster.DataType;
import io.xdlink.cluster.PerfRun;
import io.xdlink.cluster.RedOp;
import io.xdlink.cluster.SimCluster;
import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.sim.SimTopology;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One nccl-tests program on a simulated cluster: nccl-tests' options ({@code -b -e -f -n -w -c -d -o -r}) and
 * xdlink's ({@code --hosts --topology --link -P --json --plot --compare --clock}), with nccl-tests' defaults.
 */
abstract class PerfCommand implements Callable<Integer> {
    static final long PULL_PEER_TIMEOUT_MS = 200;

    private final Collective collective;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "Smallest size (K, M, G suffixes; default: 32M).")
    String minBytes = "32M";

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "Largest size (default: 32M).")
    String maxBytes = "32M";

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "FACTOR", description = "Multiply the size by this (default: 2).")
    double factor = 2;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "Timed runs per size (default: 20). In virtual time every timed run of a size takes the "
                    + "same time, so -n 1 says as much, sooner.")
    int iters = 20;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "Untimed runs first (default: 1).")
    int warmup = 1;

    @Option(names = {"-c", "--check"}, paramLabel = "0|1", description = "Check every element of every result (default: 1).")
    int check = 1;

    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", description = "float, bfloat16 or int32 (default: float).")
    String datatype = "float";

    @Option(names = {"-o", "--op"}, paramLabel = "OP", description = "sum or max (default: sum).")
    String op = "sum";

    @Option(names = {"-r", "--root"}, paramLabel = "HOST", description = "Broadcast's root (default: 0).")
    int root = 0;

    @Option(names = "--hosts", paramLabel = "N", description = "Simulated hosts, 2..64 (default: 4).")
    int hosts = 4;

    @Option(names = "--topology", paramLabel = "SHAPE", description = "ring, chain or dual-ring (default: ring).")
    String topology = "ring";

    @Option(names = "--link", paramLabel = "LINKS",
            description = "gen2x1 .. gen4x2 for every cable; or one per cable, comma-separated, in order; or "
                    + "cableN=genXxY overrides (default: gen3x2).")
    String link = "gen3x2";

    @Option(names = {"-P", "--param"}, paramLabel = "NAME=VALUE",
            description = "Any xdlink parameter, e.g. cluster_refused_bond=cable2 or cluster_pull=cable1@200us "
                    + "(see xdlink params); repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--clock", paramLabel = "virtual|real",
            description = "virtual (default): any number of hosts, the same figures on every machine; real: paced by "
                    + "the wall clock, a progress thread per host, at most 8 hosts; figures then depend on this "
                    + "machine's processors.")
    String clock = "virtual";

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the simulation (default: 1).")
    long seed = 1;

    @Option(names = "--label", paramLabel = "TEXT", description = "This run's name in --plot and --json.")
    String label;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the results as JSON.")
    Path json;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Draw busbw against size, with the bound, and any --compare runs beside this one.")
    Path plot;

    @Option(names = "--compare", paramLabel = "FILE.json", description = "An earlier --json result for --plot; repeatable.")
    List<Path> compare = new ArrayList<>();

    PerfCommand(Collective collective) {
        this.collective = collective;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long wallStart = System.nanoTime();
        Params p = load();
        SimTopology topo;
        PerfRun run;
        try {
            topo = ClusterPlan.topology(topology, hosts, link, p.get(ClusterParams.REFUSED_BOND));
            PerfRun.Pull pull = ClusterPlan.pull(p.get(ClusterParams.PULL), topo.cableCount());
            if (!clock.equals("virtual") && !clock.equals("real")) {
                throw new IllegalArgumentException("--clock is virtual or real, got '"
                        + (clock.length() > 40 ? clock.substring(0, 40) + "..." : clock) + "'");
            }
            if (clock.equals("real") && hosts > ClusterConfig.MAX_REAL_TIME_HOSTS) {
                throw new IllegalArgumentException("--clock real runs at most " + ClusterConfig.MAX_REAL_TIME_HOSTS
                        + " hosts (a progress thread each); run " + hosts + " hosts in virtual time");
            }
            if (check != 0 && check != 1) {
                throw new IllegalArgumentException("-c is 0 or 1, got " + check);
            }
            if (collective.rooted() && (root < 0 || root >= hosts)) {
                throw new IllegalArgumentException("-r must name a host, 0.." + (hosts - 1) + ", got " + root);
            }
            if (collective == Collective.SENDRECV && topo.shape() == SimTopology.Shape.CHAIN) {
                throw new IllegalArgumentException("sendrecv_perf sends from the last host back to the first: a chain"
                        + " has no cable for that; use --topology ring");
            }
            run = new PerfRun(collective, DataType.parse(datatype), RedOp.parse(op), root, size("-b", minBytes),
                    size("-e", maxBytes), factor, iters, warmup, check == 1, pull);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (plot != null && !plot.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new UsageException("--plot writes a PNG; name the file *.png, got '" + plot + "'");
        }
        if (!compare.isEmpty() && plot == null) {
            throw new UsageException("--compare adds runs to a plot; give --plot FILE.png too");
        }
        List<ClusterJson.Series> earlier = new ArrayList<>();
        for (Path c : compare) {
            earlier.add(ClusterJson.read(c));
        }
        String name = label != null ? label : hosts + " hosts, " + topo.shape().label() + ", " + link
                + refusedNote(p);
        NcclTable table = new NcclTable(out, collective, run);
        table.header(topo, p, clock.equals("real"));
        PerfRun.Result result;
        SimCluster.Memory memory;
        try (SimCluster cluster = SimCluster.open(new ClusterConfig(topo, p, seed, clock.equals("real")))) {
            table.devices(cluster);
            result = run.run(cluster, table::row);
            memory = cluster.memoryPerHost(0);
            for (int h = 1; h < cluster.hostCount(); h++) {
                SimCluster.Memory m = cluster.memoryPerHost(h);
                if (m.total() > memory.total()) {
                    memory = m;
                }
            }
        }
        double wall = (System.nanoTime() - wallStart) / 1e9;
        table.footer(result, memory, hosts, wall);
        ClusterJson.Series series = ClusterJson.series(name, collective, topo, link, result);
        if (json != null) {
            ClusterJson.write(json, series, hosts, memory);
            out.println("# xdlink: wrote " + json);
        }
        if (plot != null) {
            List<ClusterJson.Series> all = new ArrayList<>(earlier);
            all.addFirst(series);
            ClusterPlot.write(all, plot);
            out.println("# xdlink: plotted " + all.size() + " run(s) to " + plot);
        }
        out.flush();
        return result.wrong() == 0 ? 0 : 1;
    }

    private static String refusedNote(Params p) {
        List<String> r = p.get(ClusterParams.REFUSED_BOND);
        return r.isEmpty() ? "" : ", refused bond on " + String.join(",", r);
    }

    /**
     * The parameters: the usual sources, then this command line's. A pull shortens the rails' peer timeout to
     * {@value #PULL_PEER_TIMEOUT_MS} ms unless the command line sets it, so the hosts on the pulled cable hear of it
     * (as NCCL would from the plugin) within a fraction of a second of virtual time instead of ten seconds.
     */
    private Params load() {
        Map<String, String> explicit = new LinkedHashMap<>(params);
        if (explicit.keySet().stream().anyMatch(k -> k.equalsIgnoreCase("cluster_pull"))
                && explicit.keySet().stream().noneMatch(k -> k.equalsIgnoreCase("peer_timeout_ms"))) {
            explicit.put("peer_timeout_ms", Long.toString(PULL_PEER_TIMEOUT_MS));
        }
        try {
            return ParamSources.system().explicit(explicit, Origin.explicit("command line")).load();
        } catch (ParamException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** A size as nccl-tests reads it: bytes, or with a K, M or G suffix (powers of 1024). */
    static long size(String option, String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (!t.isEmpty() && "KMG".indexOf(t.charAt(t.length() - 1)) >= 0) {
            mult = 1L << (10 * ("KMG".indexOf(t.charAt(t.length() - 1)) + 1));
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = Math.multiplyExact(Long.parseLong(t), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(option + " needs a size in bytes (K, M, G suffixes allowed), got '"
                    + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'");
        }
        if (v < 0 || v > (1L << 30)) {
            throw new IllegalArgumentException(option + " must be between 0 and 1G, got " + text);
        }
        return v;
    }
}
