/**
 * An in-memory rail transport: two joined ends with a receive ring each way, seeded faults in the manner of
 * Aeron's loss generators (loss, reordering, duplication, corruption), and a rail that can be silently dropped and
 * brought back or cut for good. Unit tests run whole devices over it, and the transport conformance suite uses it as
 * the reference every other transport is compared with.
 */
package io.xdlink.rails.inmemory;
