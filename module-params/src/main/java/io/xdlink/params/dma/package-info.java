/**
 * DMA ring planning: the host facts that decide how large a coherent DMA buffer can be (CMA from /proc/meminfo, the
 * IOMMU mode from /sys/kernel/iommu_groups and /proc/cmdline), read under a configurable root or given in code, and
 * the planner that turns a requested ring size into one that fits, with every step tried and the warning to print.
 * It lives beside the parameters because {@code ring_size} is where a user meets it, and the simulator allocates its
 * simulated rings through the same planner so that a test sees the warning a user would.
 */
package io.xdlink.params.dma;
