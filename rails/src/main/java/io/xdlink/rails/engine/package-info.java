/**
 * The engine behind the verbs. Not API: other modules use {@link io.xdlink.rails.verbs}; this package may change
 * without notice. What is public here is public only so that the verbs, in a package of their own, can call it.
 *
 * <p>The engine makes the verbs reliable, in rooms of one job each. The engine ({@link DeviceEngine}) keeps the duty
 * cycle and hands out frame dispatch ({@code FrameDispatch}), the in-flight budget ({@code InflightBudget}), its
 * counters ({@code EngineCounters}) and the registry of rails and pools ({@code RailRegistry}). A rail
 * ({@code Rail}) keeps its sequences and credits in both directions with its receive window, handshake, round-trip
 * estimate, send credit and unsequenced budget in classes of their own, and reports to the engine only through
 * {@code RailEvents} ({@code RailLifecycle}); calls run one way, from the engine down. A pool of rails per peer
 * ({@code PeerPool}) schedules data over them, with stripe planning ({@code StripePlanner}, {@code Striper}), a
 * control outbox of sealed control frames ({@code ControlOutbox}, {@code QueuedControl}) and the coalesced
 * acknowledgement ({@code AckCoalescer}) each apart; each queue pair ({@link QpCore}, the engine's side of a
 * {@link io.xdlink.rails.verbs.QueuePair}) has its sending and receiving halves ({@code QpSender},
 * {@code QpReceiver}). Connections are set up over the rails themselves ({@code ConnectionManager}) and remote keys
 * are looked up in the device's {@link KeyTable}.
 *
 * <p>The verbs call into the engine. API calls never block: they hand work over as {@link Command}s
 * ({@link SendRequest}, {@link RecvRequest} and the rest) on the engine's queue, and the engine never blocks either.
 * The engine reaches back into the verbs only to read registered memory regions and to report: completions it pushes
 * on a {@link io.xdlink.rails.verbs.CompletionQueue}, a queue pair's state (kept in its {@link QpCore}, which the
 * queue pair reads), requests it queues for a {@link io.xdlink.rails.verbs.Listener}.
 */
package io.xdlink.rails.engine;
