/**
 * A USB4 cluster in software: N simulated hosts cabled as a ring, a chain or a dual ring, each with its own rails
 * device and its own {@link io.xdlink.ccl.CclNet}, driven the way NCCL's network proxy drives a plugin (listen,
 * connect and accept with each neighbour; registered FIFO slots; chunked, pipelined isend and irecv with at most
 * eight requests in flight per connection; polling test). On top run NCCL's ring algorithms (all_reduce,
 * all_gather, reduce_scatter, broadcast, sendrecv; on a chain the chain-shaped tree and two-way pipelines), in
 * virtual time, with every element of every result checked. It is a checker and a planner, never a production
 * engine: real collectives run inside NCCL and RCCL through the plugin.
 */
package io.xdlink.cluster;
