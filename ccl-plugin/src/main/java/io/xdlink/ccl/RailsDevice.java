package io.xdlink.ccl;

import io.xdlink.ccl.engine.Device;
import io.xdlink.params.Params;
import io.xdlink.rails.Fabric;
import io.xdlink.rails.PeerInfo;

import java.util.Optional;

/** PLACEHOLDER-NOT-FOR-MAIN: replaced by the device over rails queue pairs when they land. */
final class RailsDevice {
    private RailsDevice() {
    }

    static Device open(Fabric fabric, PeerInfo peer, Optional<Fabric> far, Params params) throws CclException {
        throw new CclException(CclResult.SYSTEM_ERROR, "PLACEHOLDER-NOT-FOR-MAIN");
    }
}
