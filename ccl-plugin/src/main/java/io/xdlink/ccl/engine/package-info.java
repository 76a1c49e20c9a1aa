/**
 * The connection ends behind the collective-library API and the protocol between them, the way RDMA plugins do it:
 * a receiver posts buffers and advertises each one's address, remote key, size and tag over its connection; the
 * sender matches each send to an advertised buffer by tag, in posting order, and writes straight into it with a
 * write-with-immediate whose immediate names the receive and the buffer. Everything here speaks to rails through
 * the small {@link io.xdlink.ccl.engine.Connection} seam, so the protocol is tested byte for byte without a fabric.
 * Each end keeps an {@link io.xdlink.ccl.engine.Attention} in native memory (completions arrived, completions seen),
 * so a test of a request that cannot have changed answers without the end's lock, in Java or in the native shim.
 */
package io.xdlink.ccl.engine;
