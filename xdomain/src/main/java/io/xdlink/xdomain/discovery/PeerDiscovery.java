package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.discovery.Outcome.Answered;
import io.xdlink.xdomain.discovery.Outcome.Failed;
import io.xdlink.xdomain.packet.ControlFrame;
import io.xdlink.xdomain.packet.PacketFormatException;
import io.xdlink.xdomain.packet.UuidWords;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateChangeResponse;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusRequest;
import io.xdlink.xdomain.packet.XdpMessage.LinkStateStatusResponse;
import io.xdlink.xdomain.packet.XdpMessage.UuidRequest;
import io.xdlink.xdomain.packet.XdpMessage.UuidResponse;
import io.xdlink.xdomain.packet.XdpType;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;
import io.xdlink.xdomain.property.PropertyFormatException;
import io.xdlink.xdomain.service.RemoteServices;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Discovery and lane bonding on one link to a peer, step for step as Linux's {@code tb_xdomain_state_work}.
 *
 * <p>INIT (100 ms after {@link #start()}) asks for the UUID 100 ms later. UUID: the peer's answer starts the
 * PROPERTIES_CHANGED notifications (10 retries, 1 s apart) and goes to LINK_STATUS when this port could bond, else
 * to PROPERTIES; our own UUID back means a loop (never bonded), a UUID unlike the one before means the peer was
 * replaced (ERROR). LINK_STATUS: a peer that supports one lane only goes straight to PROPERTIES; otherwise the
 * higher UUID (memcmp of the raw bytes) waits in BONDING_UUID_HIGH for the lower one's LINK_STATE_CHANGE, and the
 * lower one sends it (tlw 3), checks the peer again (LINK_STATUS2) and bonds its own lanes (BONDING_UUID_LOW).
 * Each side waits up to 10 s for two lanes; any bonding failure continues to PROPERTIES on one lane. PROPERTIES
 * reads the block, accepts it when it is the first or newer, disables lane 1 if bonding was possible but did not
 * happen, and creates the services: ENUMERATED. A PROPERTIES_CHANGED request reads the block again.
 *
 * <p>Every state step is a work on the host's ordered queue; a failed step retries after 1 s, 10 times (each request
 * waits up to 1 s for its answer). Linux retries a NOT_SUPPORTED answer like any other failure (its error code is
 * -ENOTSUPP, which the -EOPNOTSUPP test does not catch), so does this. When the retries of UUID or PROPERTIES run
 * out, or the peer's block cannot be used, discovery goes to ERROR and stops; a UUID request from the peer starts
 * it again.
 *
 * <p>Confined to the host's scheduler: packets from the channel are handed to it first. The steps stay together
 * in this one class, in the order of Linux's state work, so the two can be read side by side; the parts that stand
 * alone live in {@link Transactions}, {@link PropertiesRead}, {@link Responder}, {@link ChangeNotifier} and
 * {@link LaneWait}.
 */
public final class PeerDiscovery {
    static final long MS = 1_000_000L;
    /** XDOMAIN_SHORT_TIMEOUT. */
    static final long SHORT_TIMEOUT = 100 * MS;
    /** XDOMAIN_DEFAULT_TIMEOUT: request timeout and retry delay. */
    static final long DEFAULT_TIMEOUT = 1000 * MS;
    /** XDOMAIN_BONDING_TIMEOUT: how long to wait for the link to reach the target width. */
    static final long BONDING_TIMEOUT = 10_000 * MS;
    /** Delay of the notification after a local service was registered or removed. */
    static final long UPDATE_DELAY = 50 * MS;
    /** XDOMAIN_RETRIES. */
    static final int RETRIES = 10;

    private final XdomainHost host;
    private final Scheduler scheduler;
    private final String name;
    private final long route;
    private final ControlChannel channel;
    private final LaneAdapter lanes;
    private final Transactions transactions;
    private final LaneWait laneWait;
    private final Responder responder;
    private final RemoteServices remoteServices;
    private final WorkQueue.Work stateWork;
    private final ChangeNotifier notifier;
    private final List<PeerListener> listeners = new CopyOnWriteArrayList<>();
    private final Runnable registryListener;
    private final Runnable laneListener;

    private DiscoveryState state = DiscoveryState.INIT;
    private int stateRetries;
    private final boolean needsUuid;
    private UUID remoteUuid;
    private boolean bondingPossible;
    private int targetLinkWidth;
    private boolean registered;
    private boolean loop;
    private boolean replaced;
    private boolean started;
    private boolean stopped;
    private Peer.RemoteProperties remoteProperties;
    private String lastError;
    private volatile Peer snapshot;

    PeerDiscovery(XdomainHost host, String name, long route, ControlChannel channel, LaneAdapter lanes,
                  int localMaxHopId, UUID remoteUuid) {
        this.host = host;
        this.scheduler = host.scheduler();
        this.name = name;
        this.route = route;
        this.channel = channel;
        this.lanes = lanes;
        this.remoteUuid = remoteUuid;
        this.needsUuid = remoteUuid == null;
        this.transactions = new Transactions(scheduler, channel, DEFAULT_TIMEOUT);
        this.laneWait = new LaneWait(scheduler, lanes);
        this.responder = new Responder(this, host.services(), channel, lanes, host.uuid(), localMaxHopId);
        this.remoteServices = new RemoteServices(name);
        this.stateWork = host.workQueue().work(name + " state", this::runState);
        this.notifier = new ChangeNotifier(host.workQueue(), name, transactions, route, host.uuid());
        this.registryListener = () -> scheduler.execute(() -> {
            if (registered && !stopped) {
                notifier.serviceChanged();
            }
        });
        this.laneListener = this::publish;
        this.snapshot = buildSnapshot();
        channel.receiver(wire -> scheduler.execute(() -> receive(wire)));
    }

    // ------------------------------------------------------------------------------------------------ public API

    /** Starts the handshake (Linux: the XDomain was added); requests from the peer are answered from now on. */
    public void start() {
        scheduler.execute(() -> {
            if (started || stopped) {
                return;
            }
            started = true;
            host.services().addListener(registryListener);
            lanes.addListener(laneListener);
            if (lanes.dualLink() && lanes.speed().ordinal() < Generation.GEN4.ordinal()) {
                bondingPossible = true; // Gen 4 links come up bonded and are not negotiated
            }
            startHandshake();
        });
    }

    /** Stops everything (the cable went away): no more packets, timers or notifications from this link. */
    public void stop() {
        scheduler.execute(() -> {
            stopped = true;
            stateWork.close();
            notifier.close();
            transactions.cancel();
            laneWait.abort();
            host.services().removeListener(registryListener);
            lanes.removeListener(laneListener);
            channel.receiver(packet -> { });
            remoteServices.clear();
            publish();
        });
    }

    public void addListener(PeerListener listener) {
        listeners.add(listener);
    }

    public void removeListener(PeerListener listener) {
        listeners.remove(listener);
    }

    /** What discovery knows now; safe from any thread. */
    public Peer peer() {
        return snapshot;
    }

    public String name() {
        return name;
    }

    /** The property block this link serves to the peer now. */
    public int[] localBlock() {
        return responder.block();
    }

    // ------------------------------------------------------------------------------------------- receiving side

    private void receive(byte[] wire) {
        if (stopped) {
            return;
        }
        XdomainPacket packet;
        try {
            ControlFrame frame = ControlFrame.parse(wire);
            if (!frame.crcOk()) {
                return; // Linux drops it: "RX: checksum mismatch"
            }
            packet = XdomainPacket.parse(frame.words());
        } catch (PacketFormatException e) {
            return; // Linux drops packets whose length field disagrees with their size
        }
        if (!packet.protocol().equals(XdpCodec.XDP_UUID)) {
            host.protocolHandlers().dispatch(packet, channel);
            return;
        }
        Optional<XdpType> type = XdpType.of(packet.word(7));
        if (type.isPresent() && !type.get().isRequest()) {
            transactions.offer(packet, type.get());
        } else {
            responder.handle(packet, type);
        }
    }

    boolean started() {
        return started && !stopped;
    }

    DiscoveryState state() {
        return state;
    }

    /** A UUID request was answered: a discovery stopped in ERROR starts again. */
    void uuidRequested() {
        if (state == DiscoveryState.ERROR) {
            startHandshake();
        }
    }

    /** The peer's block changed: read it again once the peer has been enumerated. */
    void propertiesChanged() {
        if (registered) {
            stateWork.queue(SHORT_TIMEOUT);
        }
    }

    /** The lower UUID asked for {@code tlw} while we wait in BONDING_UUID_HIGH. */
    void linkStateChangeRequested(int tlw) {
        targetLinkWidth = tlw;
        stateWork.queue(SHORT_TIMEOUT);
    }

    // --------------------------------------------------------------------------------------------- state machine

    private void startHandshake() {
        state = DiscoveryState.INIT;
        stateWork.queue(SHORT_TIMEOUT);
        publish();
    }

    private void enter(DiscoveryState next, long delay) {
        state = next;
        stateRetries = RETRIES;
        stateWork.queue(delay);
    }

    private void retryState() {
        stateWork.queue(DEFAULT_TIMEOUT);
    }

    private void failed(String why) {
        lastError = why;
        state = DiscoveryState.ERROR;
        stateWork.queue(DEFAULT_TIMEOUT);
    }

    /** One run of the state work; {@code done} releases the host's work queue. */
    private void runState(Runnable done) {
        if (stopped) {
            done.run();
            return;
        }
        Runnable finish = () -> {
            publish();
            done.run();
        };
        int sequence = XdpHeader.sequenceFor(stateRetries);
        DiscoveryState running = state;
        switch (running) {
            case INIT -> {
                if (needsUuid) {
                    enter(DiscoveryState.UUID, SHORT_TIMEOUT);
                } else {
                    notifier.start();
                    enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                }
                finish.run();
            }
            case UUID -> transactions.send(new UuidRequest(XdpHeader.of(route, sequence)), XdpType.UUID_RESPONSE,
                    o -> {
                        uuidAnswered(o);
                        finish.run();
                    });
            case LINK_STATUS, LINK_STATUS2 -> linkStatus(ok -> {
                if (ok && running == DiscoveryState.LINK_STATUS) {
                    enterBonding();
                } else if (ok) {
                    enter(DiscoveryState.BONDING_UUID_LOW, DEFAULT_TIMEOUT);
                }
                finish.run();
            });
            case LINK_STATE_CHANGE -> transactions.send(new LinkStateChangeRequest(XdpHeader.of(route, sequence),
                    LaneAdapter.TARGET_WIDTH_DUAL, lanes.targetSpeed() & 0xFF), XdpType.LINK_STATE_CHANGE_RESPONSE,
                    o -> {
                        if (o instanceof Answered a && ((LinkStateChangeResponse) a.response()).status() == 0) {
                            enter(DiscoveryState.LINK_STATUS2, DEFAULT_TIMEOUT);
                        } else if (retry(o, "link state change")) {
                            retryState();
                        } else {
                            enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                        }
                        finish.run();
                    });
            case BONDING_UUID_LOW -> {
                if (!lanes.dualLink()) {
                    enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                    finish.run();
                    return;
                }
                lanes.enableSecondLane();
                lanes.setTargetWidth(LaneAdapter.TARGET_WIDTH_DUAL);
                laneWait.await(2, BONDING_TIMEOUT, bonded -> {
                    if (!bonded) {
                        lastError = "link did not bond within 10 s";
                    }
                    enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                    finish.run();
                });
            }
            case BONDING_UUID_HIGH -> bondUuidHigh(finish);
            case PROPERTIES -> PropertiesRead.start(transactions, route, sequence, host.uuid(), remoteUuid, r -> {
                propertiesRead(r);
                finish.run();
            });
            case ENUMERATED -> {
                enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                finish.run();
            }
            case ERROR -> {
                notifier.stop();
                stateRetries = 0;
                finish.run();
            }
        }
    }

    /** Linux's {@code state_retries-- > 0} after a failed request: true to try again. */
    private boolean retry(Outcome outcome, String what) {
        lastError = what + ": " + switch (outcome) {
            case Failed f -> f.failure() + " (" + f.detail() + ")";
            case Answered a -> "status " + a.response();
        };
        return stateRetries-- > 0;
    }

    private void uuidAnswered(Outcome o) {
        if (!(o instanceof Answered a)) {
            if (retry(o, "UUID")) {
                retryState();
            } else {
                failed(lastError);
            }
            return;
        }
        UUID uuid = ((UuidResponse) a.response()).sourceUuid();
        if (uuid.equals(host.uuid())) {
            loop = true;
            bondingPossible = false; // never bond a loop
        }
        if (remoteUuid != null && !uuid.equals(remoteUuid)) {
            replaced = true;
            failed("peer replaced: UUID " + remoteUuid + " is now " + uuid);
            return;
        }
        remoteUuid = uuid;
        notifier.start();
        enter(bondingPossible ? DiscoveryState.LINK_STATUS : DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
    }

    /** LINK_STATUS and LINK_STATUS2: {@code next} hears true when the peer can bond; handles retry and fallback. */
    private void linkStatus(Consumer<Boolean> next) {
        transactions.send(new LinkStateStatusRequest(XdpHeader.of(route, XdpHeader.sequenceFor(stateRetries))),
                XdpType.LINK_STATE_STATUS_RESPONSE, o -> {
                    if (o instanceof Answered a && ((LinkStateStatusResponse) a.response()).status() == 0) {
                        int slw = ((LinkStateStatusResponse) a.response()).slw();
                        if (slw < LaneAdapter.SUPPORTED_WIDTH_DUAL) {
                            lastError = "peer supports one lane only (slw " + slw + ")";
                            enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                            next.accept(false);
                        } else {
                            next.accept(true);
                        }
                    } else if (retry(o, "link status")) {
                        retryState();
                        next.accept(false);
                    } else {
                        enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
                        next.accept(false);
                    }
                });
    }

    private void enterBonding() {
        boolean higher = UuidWords.compareRaw(host.uuid(), remoteUuid) > 0;
        targetLinkWidth = 0;
        enter(higher ? DiscoveryState.BONDING_UUID_HIGH : DiscoveryState.LINK_STATE_CHANGE, DEFAULT_TIMEOUT);
    }

    private void bondUuidHigh(Runnable finish) {
        int width;
        if (targetLinkWidth == LaneAdapter.TARGET_WIDTH_SINGLE) {
            width = 1;
        } else if (targetLinkWidth == LaneAdapter.TARGET_WIDTH_DUAL) {
            width = 2;
        } else {
            if (stateRetries-- > 0) {
                retryState();
            } else {
                lastError = "no link state change request from the peer";
                enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
            }
            finish.run();
            return;
        }
        lanes.setTargetWidth(targetLinkWidth);
        laneWait.await(width, BONDING_TIMEOUT, reached -> {
            if (!reached) {
                lastError = "link did not reach " + width + " lanes within 10 s";
            }
            enter(DiscoveryState.PROPERTIES, DEFAULT_TIMEOUT);
            finish.run();
        });
    }

    private void propertiesRead(PropertiesRead.Result result) {
        if (result instanceof PropertiesRead.Unread u) {
            if (retry(u.failed(), "properties")) {
                retryState();
            } else {
                failed(lastError);
            }
            return;
        }
        PropertiesRead.Block block = (PropertiesRead.Block) result;
        if (remoteProperties != null && Integer.compareUnsigned(block.generation(),
                remoteProperties.generation()) <= 0) {
            state = DiscoveryState.ENUMERATED; // not newer: keep what we have
            return;
        }
        PropertyDirectory root;
        try {
            root = PropertyBlock.parse(block.words());
        } catch (PropertyFormatException e) {
            failed("peer's property block: " + e.getMessage());
            return;
        }
        Optional<Peer.RemoteProperties> accepted = Peer.RemoteProperties.of(block.generation(), root);
        if (accepted.isEmpty()) {
            failed("peer's property block lacks the vendorid or deviceid immediate");
            return;
        }
        remoteProperties = accepted.get();
        if (!registered) {
            if (bondingPossible && lanes.currentWidth() < 2) {
                lanes.disableSecondLane();
            }
            registered = true;
        }
        remoteServices.update(root);
        state = DiscoveryState.ENUMERATED;
    }

    // ------------------------------------------------------------------------------------------------ snapshots

    private Peer buildSnapshot() {
        LinkState link = lanes.linkState();
        return new Peer(name, state, Optional.ofNullable(remoteUuid), link, loop, replaced,
                Optional.ofNullable(remoteProperties), remoteServices.services(), Optional.ofNullable(lastError));
    }

    private void publish() {
        Peer next = buildSnapshot();
        if (!next.equals(snapshot)) {
            snapshot = next;
            for (PeerListener l : listeners) {
                l.peerChanged(next);
            }
        }
    }
}
