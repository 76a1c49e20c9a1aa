/**
 * The verbs: {@link io.xdlink.rails.verbs.Device} (one progress engine owning a device's rails),
 * {@link io.xdlink.rails.verbs.ProtectionDomain}, {@link io.xdlink.rails.verbs.MemoryRegion} with random remote
 * keys, reliable-connected {@link io.xdlink.rails.verbs.QueuePair}s with WRITE, WRITE_WITH_IMM, SEND and RECV,
 * {@link io.xdlink.rails.verbs.CompletionQueue}s, and connection set-up over the rails through
 * {@link io.xdlink.rails.verbs.Listener} and {@link io.xdlink.rails.verbs.Connecting}. This package is the API other
 * modules use. API calls never block; they hand work to the engine through queues.
 *
 * <p>The engine that makes the verbs reliable (the duty cycle, rails, pools, striping, acknowledgements, the sending
 * and receiving halves of each queue pair) lives in {@link io.xdlink.rails.engine}, which is not API. The verbs call
 * into the engine and the engine calls down to the rails; the engine reports back only through the verbs' own
 * objects (completions on a completion queue, a queue pair's state, requests waiting for a listener).
 */
package io.xdlink.rails.verbs;
