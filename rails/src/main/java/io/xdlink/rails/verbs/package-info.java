/**
 * The verbs: {@link io.xdlink.rails.verbs.Device} (one progress engine owning a device's rails),
 * {@link io.xdlink.rails.verbs.ProtectionDomain}, {@link io.xdlink.rails.verbs.MemoryRegion} with random remote
 * keys, reliable-connected {@link io.xdlink.rails.verbs.QueuePair}s with WRITE, WRITE_WITH_IMM, SEND and RECV,
 * {@link io.xdlink.rails.verbs.CompletionQueue}s, and connection set-up over the rails through
 * {@link io.xdlink.rails.verbs.Listener} and {@link io.xdlink.rails.verbs.Connecting}. Behind them, package-private,
 * lives the engine that makes them reliable: per-rail sequences, credit positions and coalesced acknowledgements
 * ({@code Rail}), pools of rails per peer with write striping and failover ({@code PeerPool}, {@code Striper}), and
 * each queue pair's sending and receiving halves ({@code QpSender}, {@code QpReceiver}). API calls never block; they
 * hand work to the engine through queues, and the engine never blocks either.
 */
package io.xdlink.rails.verbs;
