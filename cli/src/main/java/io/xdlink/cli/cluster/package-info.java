/**
 * {@code xdlink cluster}: nccl-tests' programs ({@code all_reduce_perf} and the others) run on a simulated USB4
 * cluster of 2 to 64 hosts in virtual time, printed the way nccl-tests prints, so a planned cabling's rows go beside
 * real ones; with the analytic bound, the cable that sets it, the memory each host holds, JSON and a plot.
 */
package io.xdlink.cli.cluster;
