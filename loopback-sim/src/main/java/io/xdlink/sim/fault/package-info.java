/**
 * What goes wrong on a simulated fabric: the seeded fault plan (frame loss in bursts or alone, reordering,
 * duplication, corruption, end-to-end flow control on or off, lossy ring 0) and the scripted events (cable pulls
 * and replugs, host crashes and restarts). Everything is drawn from one seed so a failing run replays exactly.
 */
package io.xdlink.sim.fault;
