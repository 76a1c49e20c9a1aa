package io.xdlink.sim.fault;

/**
 * Something that happens to the fabric at a planned moment (scheduler nanoseconds), so a test or a benchmark can
 * script a cable pull mid-transfer and replay it exactly.
 */
public sealed interface FaultEvent {

    /** When it happens, in the fabric's scheduler time. */
    long atNanos();

    /** The cable is pulled: both hosts see the peer unplugged and every rail over it fails. */
    record CablePull(String cable, long atNanos) implements FaultEvent {
    }

    /** The cable is plugged back: both hosts enumerate the peer again. */
    record CableReplug(String cable, long atNanos) implements FaultEvent {
    }

    /** The host stops dead: its rails fail and its peers see every cable to it go quiet. */
    record HostCrash(String host, long atNanos) implements FaultEvent {
    }

    /** The crashed host boots again with the same domain UUID and enumerates its peers afresh. */
    record HostRestart(String host, long atNanos) implements FaultEvent {
    }
}
