package io.xdlink.ccl;

import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;
import io.xdlink.rails.host.SharedSubnets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a fabric into the plugin's devices: one per peer, all rails to that peer behind it, in the order the fabric
 * lists its peers. A loopback peer (one whose far end the fabric can hand us) becomes a loopback device.
 */
final class Devices {

    /** Opens the devices leading to each peer, and owns what they share (the fabric among it). */
    interface Source extends AutoCloseable {
        PeerDevice open(int dev, PeerInfo peer, Optional<Fabric> far) throws CclException;

        @Override
        void close();
    }

    private Devices() {
    }

    static XdlinkNet open(Fabric fabric, CclLog log, Source source) throws CclException {
        List<XdlinkNet.DeviceEntry> entries = new ArrayList<>();
        try {
            List<PeerInfo> peers = fabric.peers();
            for (PeerInfo peer : peers) {
                int dev = entries.size();
                if (peer.links().isEmpty()) {
                    log.info("NET/xdlink : peer " + peer.name() + " has no link up; no device for it");
                    continue;
                }
                Optional<Fabric> far = fabric.far(peer.domain());
                DeviceProperties props = DeviceModel.properties(dev, peer, far.isPresent(),
                        fabric.hostRouterPciPath(peer.domain()), Optional.empty());
                PeerDevice device = source.open(dev, peer, far);
                entries.add(new XdlinkNet.DeviceEntry(device, props));
                log.info(String.format("NET/xdlink : Using [%d]%s speed %d Mbps latency %.2f us (%s)%s", dev,
                        props.name(), props.speedMbps(), props.latencyMicros(), DeviceModel.describe(peer),
                        props.pciPath().map(p -> " pciPath " + p).orElse("")));
                // The device's speed counts every cable; say so when the kernel will carry them all over one.
                SharedSubnets.warnUntied(peer.links()).forEach(w -> log.warn("NET/xdlink : " + w));
            }
        } catch (CclException | RuntimeException e) {
            source.close();
            throw e;
        }
        if (entries.isEmpty()) {
            log.info("NET/xdlink : the fabric has no peers, so no devices");
        }
        return new XdlinkNet(entries, log, source);
    }
}
