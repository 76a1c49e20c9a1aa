/**
 * The collective-library network adapter: {@link io.xdlink.ccl.CclNet}, a version-neutral API shaped like NCCL's
 * {@code ncclNet} that Java collective code can call directly, and {@link io.xdlink.ccl.XdlinkNet}, its
 * implementation over rails devices ({@link io.xdlink.ccl.RailsDevices}), opened from the parameters by
 * {@link io.xdlink.ccl.CclNets}. A device is all rails to one peer, or a loopback device whose far end is the
 * simulated peer's; its properties ({@link io.xdlink.ccl.DeviceModel}) report the rate its links negotiated, never a
 * constant. The native plugin ({@code libnccl-net-xdlink.so}, {@code librccl-net-xdlink.so}) is a small C shim in
 * src/main/c exporting every ABI table from v6 to v12, whose trampolines call into {@link io.xdlink.ccl.abi}.
 */
package io.xdlink.ccl;
