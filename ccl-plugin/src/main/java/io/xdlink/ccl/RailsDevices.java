package io.xdlink.ccl;

import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Device;
import io.xdlink.rails.verbs.DeviceConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The rails devices behind the plugin's devices: one for this host over the whole fabric (its rails to every peer),
 * and, for each loopback peer, one for the simulated peer's end. Closing this closes them all.
 */
final class RailsDevices implements Devices.Source {
    private final Params params;
    private final PeerDevice.End near;
    private final Fabric fabric;
    private final List<Device> owned = new ArrayList<>();
    /** The peers of this host's devices on a real host: a connect on any of them may reach any of these. */
    private final Set<UUID> hostPeers = ConcurrentHashMap.newKeySet();
    /** The engine turn of this host's device when the host's threads run it; {@link EngineTurn#NONE} otherwise. */
    private final EngineTurn turn;

    /** Devices whose engines run on progress threads of their own. */
    RailsDevices(Fabric fabric, Params params) {
        this(fabric, params, false);
    }

    /**
     * @param realHost the fabric's rails are TCP sockets to other hosts: this host's device runs in invoker mode and
     *                 the host's calls step it ({@link EngineTurn}) unless {@code ccl_engine=thread}
     */
    RailsDevices(Fabric fabric, Params params, boolean realHost) {
        this.fabric = fabric;
        this.params = params;
        if (realHost && "host".equals(params.get(CclParams.ENGINE))) {
            Device d = open(fabric, true);
            EngineTurn t;
            try {
                t = new EngineTurn(d.agent(), CclParams.standbyIdle(params), d.config().clock()::nanoTime,
                        params.get(CclParams.HOST_POLLS),
                        TimeUnit.MICROSECONDS.toNanos(params.get(CclParams.STANDBY_PAUSE)),
                        params.get(CclParams.STANDBY_NICE).intValue(),
                        TimeUnit.MICROSECONDS.toNanos(params.get(CclParams.SEND_HOLD)),
                        TimeUnit.MICROSECONDS.toNanos(params.get(CclParams.LOOK_WAIT)));
            } catch (RuntimeException | Error e) {
                d.close();
                throw e;
            }
            this.turn = t;
            this.near = PeerDevice.End.of(d, t);
        } else {
            this.turn = EngineTurn.NONE;
            this.near = PeerDevice.End.of(open(fabric, false));
        }
    }

    private Device open(Fabric f) {
        return open(f, false);
    }

    private Device open(Fabric f, boolean invoker) {
        // A rails device is named after its host, so a handle says which host is listening.
        DeviceConfig.Builder config = DeviceConfig.builder().id(f.localDomain()).settings(RailsSettings.from(params, f));
        if (invoker) {
            config.invoker();
        } else {
            CclParams.idle(params).ifPresent(config::thread);
        }
        Device d = Device.open(f, config.build());
        owned.add(d);
        return d;
    }

    private boolean drainOnProgress() {
        return params.get(CclParams.DRAIN_ON_PROGRESS);
    }

    @Override
    public PeerDevice open(int dev, PeerInfo peer, Optional<Fabric> far) throws CclException {
        try {
            if (far.isPresent()) {
                PeerDevice.End farEnd = PeerDevice.End.of(open(far.get()));
                return new PeerDevice(dev, peer.name(), near, farEnd, PeerDevice.Reach.only(far.get().localDomain()),
                        drainOnProgress());
            }
            hostPeers.add(peer.domain());
            return new PeerDevice(dev, peer.name(), near, near, PeerDevice.Reach.anyOf(hostPeers), drainOnProgress());
        } catch (RuntimeException e) {
            throw CclException.system("device " + dev + " (" + peer.name() + "): cannot open its rails: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // The standby stops first: the device is then closed on this thread, which steps its engine last.
        turn.close();
        for (Device d : owned.reversed()) {
            d.close();
        }
        owned.clear();
        fabric.close();
    }
}
