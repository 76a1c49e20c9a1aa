/**
 * {@code xdlink bench}: perftest-compatible benchmarking.
 *
 * <p>A lab puts an xdlink row beside an {@code ib_write_bw} row and compares like for like, so the banner, the table
 * headers and the row formats are perftest's character for character, and peak bandwidth, average bandwidth, message
 * rate and the latency statistics are computed exactly as perftest computes them (its clock is the CPU's cycle
 * counter; ours is {@link System#nanoTime()}, a 1 GHz clock, with the same integer arithmetic).
 */
package io.xdlink.cli.bench;
