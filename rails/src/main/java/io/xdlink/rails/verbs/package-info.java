/**
 * The verbs: {@link io.xdlink.rails.verbs.Device} (one progress engine owning a device's rails),
 * {@link io.xdlink.rails.verbs.ProtectionDomain}, {@link io.xdlink.rails.verbs.MemoryRegion} with random remote
 * keys, reliable-connected {@link io.xdlink.rails.verbs.QueuePair}s with WRITE, WRITE_WITH_IMM, SEND and RECV,
 * {@link io.xdlink.rails.verbs.CompletionQueue}s, and connection set-up over the rails through
 * {@link io.xdlink.rails.verbs.Listener} and {@link io.xdlink.rails.verbs.Connecting}. Behind them, package-private,
 * lives the engine that makes them reliable, in rooms of one job each. The engine ({@code DeviceEngine}) keeps the
 * duty cycle and hands out frame dispatch ({@code FrameDispatch}), the in-flight budget ({@code InflightBudget}),
 * its counters ({@code EngineCounters}) and the registry of rails and pools ({@code RailRegistry}). A rail
 * ({@code Rail}) keeps its sequences and credits in both directions with its receive window, handshake, round-trip
 * estimate, send credit and unsequenced budget in classes of their own, and reports to the engine only through
 * {@code RailEvents} ({@code RailLifecycle}); calls run one way, from the engine down. A pool of rails per peer
 * ({@code PeerPool}) schedules data over them, with stripe planning ({@code StripePlanner}, {@code Striper}), a
 * control outbox of sealed control frames ({@code ControlOutbox}, {@code ControlFrame}) and the coalesced
 * acknowledgement ({@code AckCoalescer}) each apart; each queue pair has its sending and receiving halves
 * ({@code QpSender}, {@code QpReceiver}). API calls never block; they hand work to the engine through queues, and the
 * engine never blocks either.
 */
package io.xdlink.rails.verbs;
