/**
 * The connection ends behind the collective-library API and the protocol between them, the way RDMA plugins do it:
 * a receiver posts buffers and advertises each one's address, remote key, size and tag with a SEND on its rails
 * queue pair; the sender matches each send to an advertised buffer by tag, in posting order, and writes straight
 * into it with one write-with-immediate whose immediate names the receive and the buffer. The ends post on
 * {@link io.xdlink.rails.verbs.QueuePair}s and poll their {@link io.xdlink.rails.verbs.CompletionQueue}s
 * themselves; registered memory is a rails {@link io.xdlink.rails.verbs.MemoryRegion}. Each end keeps an
 * {@link io.xdlink.ccl.engine.Attention} in native memory (completions arrived, completions seen), so a test of a
 * request that cannot have changed answers without the end's lock, in Java or in the native shim.
 */
package io.xdlink.ccl.engine;
