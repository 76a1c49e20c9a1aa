/**
 * The Java side of the native plugin: the FFM upcall entry points that the C shim's version-neutral table calls,
 * the per-version {@code ncclNetProperties} layouts they write, the table of opaque handles that stand for Java
 * objects in native code, the native mirror of each request's state (and its sizes once done) that lets the shim
 * answer {@code test()} without an upcall, the per-comm list of requests handed out that releases those the shim
 * reported, and logging through the host's logger. Nothing here lets an exception reach native code:
 * every entry point turns every {@code Throwable} into an {@code ncclResult}.
 */
package io.xdlink.ccl.abi;
