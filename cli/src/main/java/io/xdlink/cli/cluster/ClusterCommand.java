package io.xdlink.cli.cluster;

import io.xdlink.cluster.Collective;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code xdlink cluster}: one subcommand per nccl-tests program. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Run nccl-tests' collectives on a simulated USB4 cluster (virtual time): what a ring, chain or "
                + "dual ring of N hosts would reach, before a cable is bought.",
                "Example: xdlink cluster all_reduce_perf --hosts 4 --topology ring --link gen3x2 -b 8 -e 16M -f 4"},
        subcommands = {CommandLine.HelpCommand.class, ClusterCommand.AllReduce.class, ClusterCommand.AllGather.class,
                ClusterCommand.ReduceScatter.class, ClusterCommand.Broadcast.class, ClusterCommand.SendRecv.class})
public final class ClusterCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "all_reduce_perf", mixinStandardHelpOptions = true,
            description = "Ring all_reduce (a chain: NCCL's tree of a line).")
    static final class AllReduce extends PerfCommand {
        AllReduce() {
            super(Collective.ALL_REDUCE);
        }
    }

    @Command(name = "all_gather_perf", mixinStandardHelpOptions = true,
            description = "Ring all_gather (a chain: both directions at once).")
    static final class AllGather extends PerfCommand {
        AllGather() {
            super(Collective.ALL_GATHER);
        }
    }

    @Command(name = "reduce_scatter_perf", mixinStandardHelpOptions = true,
            description = "Ring reduce_scatter (a chain: both directions at once).")
    static final class ReduceScatter extends PerfCommand {
        ReduceScatter() {
            super(Collective.REDUCE_SCATTER);
        }
    }

    @Command(name = "broadcast_perf", mixinStandardHelpOptions = true,
            description = "Ring broadcast from -r's host (a chain: outwards both ways).")
    static final class Broadcast extends PerfCommand {
        Broadcast() {
            super(Collective.BROADCAST);
        }
    }

    @Command(name = "sendrecv_perf", mixinStandardHelpOptions = true,
            description = "Every host sends to the next and receives from the one before.")
    static final class SendRecv extends PerfCommand {
        SendRecv() {
            super(Collective.SENDRECV);
        }
    }
}
