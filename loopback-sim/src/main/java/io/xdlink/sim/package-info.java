/**
 * A USB4 fabric in software, so every test and the main benchmark run without hardware.
 *
 * <p>{@link io.xdlink.sim.SimFabric} holds hosts with domain UUIDs and ports and cables with a generation, lanes, a
 * bonding policy, per-direction caps and a latency, all on one {@link io.xdlink.sim.SimClock} (virtual time for
 * tests, real time for benchmarks, unpaced for functional runs). Each host runs the real XDomain discovery on every
 * live port, over a simulated ring 0 and lane adapters backed by the cable's lane physics, and shows what it
 * negotiated through its {@link io.xdlink.rails.Fabric} view; rails open over cables, take HopIDs and DMA rings,
 * and share their cable's bandwidth per direction. Cables can be pulled and replugged, hosts can crash and restart.
 * The module parameter {@code loopback=N} turns it into N loopback devices inside one process
 * ({@link io.xdlink.sim.LoopbackFabric}). The frame path lives in {@code wire}, faults in {@code fault}, DMA memory in
 * {@code dma}.
 */
package io.xdlink.sim;
