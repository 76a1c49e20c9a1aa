package io.xdlink.rails.host;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.XdomainFormatException;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.property.PropertyBlock;
import io.xdlink.xdomain.property.PropertyDirectory;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The XDomain exchange that opens a session between two hosts, spoken over a TCP session's channel 0 exactly as
 * over ring 0: each host asks the other for its UUID, then reads its whole property block in chunks of at most 45
 * dwords, and answers the same requests from its own block. When this host has the peer's block the session is up;
 * a properties-changed request from the peer makes it read the block again.
 *
 * <p>Everything runs on the session's loop. TCP neither loses nor reorders, so there are no retries: a peer that
 * does not finish within the connect timeout, answers with an error, or is not the host it should be, fails the
 * handshake and the caller closes the stream.
 */
final class SessionHandshake {
    /** What the handshake reports; on the loop. */
    interface Outcome {
        /** The peer's UUID and root directory; called again after each re-read. */
        void block(UUID peer, PropertyDirectory root);

        /** The handshake cannot finish; called at most once, and nothing after it. */
        void failed(IOException why);
    }

    /** Sequence number of a first request, as Linux numbers it (10 retries left). */
    private static final int SN = XdpHeader.sequenceFor(10);
    private static final long ROUTE = 0;

    private final UUID local;
    private final UUID expected;
    private final java.util.function.Predicate<UUID> acceptable;
    private final java.util.List<XdpMessage.PropertiesRequest> deferred = new java.util.ArrayList<>();
    private final Supplier<int[]> localBlock;
    private final java.util.function.IntSupplier generation;
    private final ControlChannel channel;
    private final Scheduler loop;
    private final Duration timeout;
    private final Outcome outcome;
    private UUID peer;
    private int[] reading;
    private int readOffset;
    private int readTotal;
    private Scheduler.Timer deadline;
    private boolean failed;

    /**
     * @param expected   the peer this stream was dialled for, or null when any peer may answer (an accepted stream)
     * @param acceptable which hosts may have a session at all (the peers sysfs shows); others learn nothing
     * @param localBlock this host's block, read at each request so a change is served at once
     * @param generation this host's block generation, read with the block
     */
    SessionHandshake(UUID local, UUID expected, java.util.function.Predicate<UUID> acceptable, Supplier<int[]> localBlock, java.util.function.IntSupplier generation,
                     ControlChannel channel,
                     Scheduler loop, Duration timeout, Outcome outcome) {
        this.local = local;
        this.expected = expected;
        this.acceptable = acceptable;
        this.localBlock = localBlock;
        this.generation = generation;
        this.channel = channel;
        this.loop = loop;
        this.timeout = timeout;
        this.outcome = outcome;
    }

    void start() {
        channel.receiver(this::onPacket);
        armDeadline("the peer's UUID");
        send(new XdpMessage.UuidRequest(XdpHeader.of(ROUTE, SN)));
    }

    private void armDeadline(String what) {
        if (deadline != null) {
            deadline.cancel();
        }
        deadline = loop.schedule(timeout.toNanos(), () -> fail(new SocketTimeoutException(channel
                + ": no answer within " + timeout.toMillis() + " ms while reading " + what)));
    }

    private void send(XdpMessage m) {
        channel.send(XdpCodec.encode(m));
    }

    private void onPacket(byte[] packet) {
        if (failed) {
            return;
        }
        XdpMessage m;
        try {
            m = XdpCodec.decode(packet);
        } catch (XdomainFormatException e) {
            // Ring 0 drops a bad packet; over a reliable stream it can only come from a broken peer.
            fail(new IOException(channel + ": bad XDomain packet from the peer: " + e.getMessage(), e));
            return;
        }
        switch (m) {
            case XdpMessage.UuidRequest r -> send(new XdpMessage.UuidResponse(r.header().reply(), local, ROUTE));
            case XdpMessage.UuidRequestOld r -> send(new XdpMessage.UuidResponse(r.header().reply(), local, ROUTE));
            case XdpMessage.PropertiesRequest r -> answer(r);
            case XdpMessage.PropertiesChangedRequest r -> {
                send(new XdpMessage.PropertiesChangedResponse(r.header().reply()));
                if (peer != null && r.sourceUuid().equals(peer) && reading == null) {
                    readFrom(0, new int[0]);
                }
            }
            case XdpMessage.UuidResponse r -> onUuid(r.sourceUuid());
            case XdpMessage.PropertiesResponse r -> onChunk(r);
            case XdpMessage.ErrorResponse r -> fail(new IOException(channel + ": the peer answered "
                    + XdpError.describe(r.error())));
            default -> {
                // Link-state messages belong to lane bonding, which a TCP session has no lanes for.
            }
        }
    }

    /**
     * Answers a properties request, but only to the peer this side has identified and accepted: a request that
     * comes before the peer's UUID waits for it, and a host this side refuses never reads the block, so it cannot
     * believe in a session the other side will not keep.
     */
    private void answer(XdpMessage.PropertiesRequest r) {
        if (peer == null) {
            if (deferred.size() < 16) {
                deferred.add(r);
            }
            return;
        }
        if (!r.sourceUuid().equals(peer)) {
            return;
        }
        if (!r.destinationUuid().equals(local)) {
            send(new XdpMessage.ErrorResponse(r.header().reply(), XdpError.UNKNOWN_DOMAIN));
            return;
        }
        int[] block = localBlock.get();
        if (r.offset() >= block.length) {
            return; // as Linux: no answer to an offset past the block
        }
        int n = Math.min(XdpMessage.PropertiesResponse.MAX_DATA, block.length - r.offset());
        send(new XdpMessage.PropertiesResponse(r.header().reply(), local, r.sourceUuid(), r.offset(), block.length,
                generation.getAsInt(), Arrays.copyOfRange(block, r.offset(), r.offset() + n)));
    }

    private void onUuid(UUID uuid) {
        if (peer != null) {
            return;
        }
        if (uuid.equals(local)) {
            fail(new IOException(channel + ": the peer is this host itself (its UUID is ours, " + uuid + ")"));
            return;
        }
        if (expected != null && !expected.equals(uuid)) {
            fail(new IOException(channel + ": answered by host " + uuid + ", expected " + expected));
            return;
        }
        if (!acceptable.test(uuid)) {
            fail(new IOException(channel + ": host " + uuid + " is not a peer of this host in sysfs; session refused"));
            return;
        }
        peer = uuid;
        deferred.forEach(this::answer);
        deferred.clear();
        readFrom(0, new int[0]);
    }

    private void readFrom(int offset, int[] sofar) {
        if (offset == 0) {
            readTotal = -1;
        }
        reading = sofar;
        readOffset = offset;
        armDeadline("the peer's property block at dword " + offset);
        send(new XdpMessage.PropertiesRequest(XdpHeader.of(ROUTE, SN), local, peer, offset));
    }

    private void onChunk(XdpMessage.PropertiesResponse r) {
        if (reading == null || !r.sourceUuid().equals(peer) || !r.destinationUuid().equals(local)
                || r.offset() != readOffset) {
            return; // not the chunk asked for: ignored, as Linux ignores it
        }
        int total = r.dataLength();
        if (readTotal >= 0 && total != readTotal) {
            readFrom(0, new int[0]); // the block changed between chunks: read it again from the start
            return;
        }
        readTotal = total;
        if (total > PropertyBlock.MAX_DWORDS || r.offset() + r.dataDwords() > total || r.dataDwords() == 0) {
            fail(new IOException(channel + ": property block chunk at dword " + r.offset() + " of "
                    + r.dataDwords() + " dwords does not fit a block of " + total + " (at most "
                    + PropertyBlock.MAX_DWORDS + ")"));
            return;
        }
        int[] block = Arrays.copyOf(reading, r.offset() + r.dataDwords());
        System.arraycopy(r.data(), 0, block, r.offset(), r.dataDwords());
        if (block.length < total) {
            readFrom(block.length, block);
            return;
        }
        reading = null;
        deadline.cancel();
        PropertyDirectory root;
        try {
            root = PropertyBlock.parse(block);
        } catch (XdomainFormatException e) {
            fail(new IOException(channel + ": the peer's property block is malformed: " + e.getMessage(), e));
            return;
        }
        outcome.block(peer, root);
    }

    private void fail(IOException why) {
        if (failed) {
            return;
        }
        failed = true;
        if (deadline != null) {
            deadline.cancel();
        }
        outcome.failed(why);
    }

    /** Tells the peer this host's block changed, so it reads it again. */
    void announceChange() {
        if (!failed) {
            send(new XdpMessage.PropertiesChangedRequest(XdpHeader.of(ROUTE, SN), local));
        }
    }
}
