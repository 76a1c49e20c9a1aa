package io.xdlink.rails.host;

import java.io.IOException;

/**
 * A port a link's listener needs is bound by another process on this host: most likely another xdlink process
 * (a bench, or another rank of a collective library) that holds this host's links on the same session port.
 * Unlike a missing address, waiting does not end it while that process lives, and the simulator is no cure:
 * callers that suggest one for a host without USB4 hardware leave this one as it is.
 */
public final class PortTakenException extends IOException {
    PortTakenException(String message) {
        super(message);
    }
}
