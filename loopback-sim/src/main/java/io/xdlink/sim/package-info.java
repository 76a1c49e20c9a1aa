/**
 * A USB4 fabric in software, so every test and the main benchmark run without hardware.
 *
 * <p>Hosts with domain UUIDs and ports, cables with a generation, lanes and a bonding policy, the real XDomain state
 * machine negotiating over a simulated ring 0, rails paced by a token bucket per cable and direction that every
 * rail on the cable shares, simulated DMA memory with CMA limits, and a seeded fault plan. The module parameter
 * {@code loopback=N} turns it into N loopback devices inside one process.
 */
package io.xdlink.sim;
