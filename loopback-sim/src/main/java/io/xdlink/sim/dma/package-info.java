/**
 * Simulated DMA memory: each host's CMA area and IOMMU mode, and the rings its rails take from it, planned by
 * module-params' ring planner so the simulator falls back, and warns, exactly where a real host would.
 */
package io.xdlink.sim.dma;
