package io.xdlink.xdomain.discovery;

/** States of the discovery state machine, named as Linux names them (XDOMAIN_STATE_*). */
public enum DiscoveryState {
    /** Started; the UUID exchange follows after 100 ms. */
    INIT,
    /** Asking the peer for its UUID. */
    UUID,
    /** Asking the peer's lane adapter what it supports. */
    LINK_STATUS,
    /** The lower UUID asks the peer to target two lanes. */
    LINK_STATE_CHANGE,
    /** The lower UUID checks the peer's lane adapter again. */
    LINK_STATUS2,
    /** The lower UUID bonds its lanes and waits for the link. */
    BONDING_UUID_LOW,
    /** The higher UUID waits for the peer's link state change request, then for the link. */
    BONDING_UUID_HIGH,
    /** Reading the peer's property block. */
    PROPERTIES,
    /** Done: properties read, services known. A properties-changed notification reads them again. */
    ENUMERATED,
    /** Discovery stopped; an incoming UUID request restarts it. */
    ERROR
}
