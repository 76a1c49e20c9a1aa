package io.xdlink.cluster;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;

/**
 * One collective as nccl-tests runs it on every host: its buffers laid out as nccl-tests lays them (in place, an
 * all_gather's input is the host's block of its output, a reduce_scatter's output the host's block of its input),
 * the steps of {@link Schedules} played by {@link SimCluster#run}, and the check of every element of every host's
 * result against the value it must hold.
 */
public final class CollectiveRun {
    private final SimCluster cluster;
    private final Collective collective;
    private final DataType type;
    private final RedOp op;
    private final int root;
    private final MemorySegment[] send;
    private final MemorySegment[] recv;

    /**
     * Allocates each host's buffers for sizes up to {@code maxSize} bytes.
     *
     * @param root the broadcast's root (ignored by the others)
     */
    public CollectiveRun(SimCluster cluster, Collective collective, DataType type, RedOp op, int root, long maxSize) {
        int n = cluster.hostCount();
        if (root < 0 || root >= n) {
            throw new IllegalArgumentException("root " + root + " is not a host: there are " + n);
        }
        this.cluster = cluster;
        this.collective = collective;
        this.type = type;
        this.op = op;
        this.root = root;
        this.send = new MemorySegment[n];
        this.recv = new MemorySegment[n];
        long aligned = collective.alignedSize(maxSize, n, type);
        for (int r = 0; r < n; r++) {
            send[r] = cluster.allocate(r, collective.inputBytes(aligned, n));
            recv[r] = cluster.allocate(r, collective.outputBytes(aligned, n));
        }
    }

    public Collective collective() {
        return collective;
    }

    public DataType type() {
        return type;
    }

    public RedOp op() {
        return op;
    }

    public int root() {
        return root;
    }

    private MemorySegment input(int r, long size, boolean inPlace) {
        int n = cluster.hostCount();
        long in = collective.inputBytes(size, n);
        if (!inPlace) {
            return send[r].asSlice(0, in);
        }
        return switch (collective) {
            case ALL_GATHER -> recv[r].asSlice(r * in, in);
            case REDUCE_SCATTER -> send[r].asSlice(0, in);
            default -> recv[r].asSlice(0, in);
        };
    }

    private MemorySegment output(int r, long size, boolean inPlace) {
        int n = cluster.hostCount();
        long out = collective.outputBytes(size, n);
        if (!inPlace || collective != Collective.REDUCE_SCATTER) {
            return recv[r].asSlice(0, out);
        }
        return input(r, size, true).asSlice(r * out, out);
    }

    /** Puts every host's pattern into its input (before a checked run). */
    public void fill(long size, boolean inPlace) {
        for (int r = 0; r < cluster.hostCount(); r++) {
            MemorySegment in = input(r, size, inPlace);
            type.fill(in, in.byteSize() / type.bytes(), r, 0);
        }
    }

    /**
     * Runs the collective once on every host.
     *
     * @param size   bytes, already {@link Collective#alignedSize aligned}
     * @param faults what happens to the fabric during the run
     */
    public SimCluster.Outcome run(long size, boolean inPlace, List<SimCluster.Fault> faults) {
        int n = cluster.hostCount();
        List<HostRun> runs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            List<List<Step>> streams = Schedules.of(collective, cluster.topology().shape(), n, r, root, size,
                    type.bytes(), cluster.config().chunkBytes() / type.bytes() * type.bytes());
            runs.add(new HostRun(r, streams, input(r, size, inPlace), output(r, size, inPlace), type, op,
                    cluster.sendPipes(r), cluster.recvPipes(r), collective.parts()));
        }
        return cluster.run(runs, faults);
    }

    /** What {@link #poison} writes: a value no collective of up to 64 hosts can produce. */
    public static final int UNTOUCHED = 1000;

    /** Fills every host's output with {@link #UNTOUCHED}, so a check can tell what a run wrote from what it left. */
    public void poison(long size, boolean inPlace) {
        for (int r = 0; r < cluster.hostCount(); r++) {
            MemorySegment out = output(r, size, inPlace);
            for (long i = 0, n = out.byteSize() / type.bytes(); i < n; i++) {
                type.set(out, i, UNTOUCHED);
            }
        }
    }

    /** Elements that differ from what they must hold, over every host that finished ({@code done[r]}). */
    public long wrong(long size, boolean inPlace, boolean[] done) {
        return wrong(size, inPlace, done, false);
    }

    /**
     * Elements of any host's output that hold neither what they must nor {@link #UNTOUCHED}: after a failed run,
     * what a host wrote that it should not have (a run writes only finished values into its output).
     */
    public long corrupted(long size, boolean inPlace) {
        boolean[] all = new boolean[cluster.hostCount()];
        Arrays.fill(all, true);
        return wrong(size, inPlace, all, true);
    }

    private long wrong(long size, boolean inPlace, boolean[] done, boolean untouchedOk) {
        int n = cluster.hostCount();
        // Every pattern repeats every 7 elements, so the reduction over hosts does too.
        int[] reduced = new int[7];
        for (int i = 0; i < 7; i++) {
            int v = DataType.pattern(0, i);
            for (int k = 1; k < n; k++) {
                v = op.apply(v, DataType.pattern(k, i));
            }
            reduced[i] = v;
        }
        long wrong = 0;
        for (int r = 0; r < n; r++) {
            if (!done[r]) {
                continue;
            }
            MemorySegment out = output(r, size, inPlace);
            long count = out.byteSize() / type.bytes();
            long block = count / n;
            for (long i = 0; i < count; i++) {
                int expected = switch (collective) {
                    case ALL_REDUCE -> reduced[(int) (i % 7)];
                    case ALL_GATHER -> DataType.pattern((int) (i / block), i % block);
                    case REDUCE_SCATTER -> reduced[(int) ((r * count + i) % 7)];
                    case BROADCAST -> DataType.pattern(root, i);
                    case SENDRECV -> DataType.pattern((r + n - 1) % n, i);
                };
                if (!type.holds(out, i, expected) && !(untouchedOk && type.holds(out, i, UNTOUCHED))) {
                    wrong++;
                }
            }
        }
        return wrong;
    }
}
