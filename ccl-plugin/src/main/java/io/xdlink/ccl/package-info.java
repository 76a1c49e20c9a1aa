/**
 * The collective-library network adapter.
 *
 * <p>A version-neutral Java API shaped like NCCL's {@code ncclNet}, implemented over rails, and the native plugin
 * ({@code libnccl-net-xdlink.so}, {@code librccl-net-xdlink.so}): a small C shim exporting every ABI table from v6 to
 * v12, whose trampolines call into this package through FFM upcalls. A device's {@code speed} is the rate its links
 * negotiated, never a constant.
 */
package io.xdlink.ccl;
