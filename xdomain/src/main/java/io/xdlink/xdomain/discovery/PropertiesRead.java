package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.discovery.Outcome.Answered;
import io.xdlink.xdomain.discovery.Outcome.Failed;
import io.xdlink.xdomain.packet.XdpHeader;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesRequest;
import io.xdlink.xdomain.packet.XdpMessage.PropertiesResponse;
import io.xdlink.xdomain.packet.XdpType;
import io.xdlink.xdomain.property.PropertyBlock;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Reads a peer's whole property block in chunks, as Linux's {@code tb_xdp_properties_request} does: start at
 * offset 0, check that each response echoes the requested offset, take {@code length - 15} dwords, advance until
 * the offset reaches the block length the first response gave. Every chunk of one read carries the same sequence
 * number. The block's generation is the one the last chunk carried.
 *
 * <p>A lying peer gets what Linux gives it (a failed read, retried by the state machine) for a wrong offset or a
 * block over 500 dwords. Where Linux trusts the peer and would misbehave this read fails instead: a block length of
 * 0 (Linux loops), a chunk that runs past the block length (Linux writes past its buffer), an empty chunk (no
 * progress), and a generation that changes between chunks (Linux would assemble a torn block from two generations;
 * the peer also sends PROPERTIES_CHANGED, and the retry reads the new block whole).
 *
 * <p>Any chunk of at least one dword is taken, as the spec's n = length - 15 says. By our reading of
 * {@code tb_xdp_properties_request}, Linux compares the length field against its whole response struct (18
 * dwords) before subtracting, and so refuses a last chunk of 1 or 2 dwords: a Linux host would fail to read a block
 * of 46, 47, 91, 92, ... dwords. xdlink reads them (see the discovery tests).
 */
final class PropertiesRead {
    private final Transactions transactions;
    private final XdpHeader header;
    private final UUID local;
    private final UUID remote;
    private final Consumer<Result> done;
    private int offset;
    private int[] block;
    private int generation;

    /** The block and its generation, or why the read failed. */
    sealed interface Result {
    }

    record Block(int[] words, int generation) implements Result {
    }

    record Unread(Failed failed) implements Result {
    }

    private PropertiesRead(Transactions transactions, XdpHeader header, UUID local, UUID remote,
                           Consumer<Result> done) {
        this.transactions = transactions;
        this.header = header;
        this.local = local;
        this.remote = remote;
        this.done = done;
    }

    /** Starts a read on {@code route} with sequence number {@code sequence} for every chunk. */
    static void start(Transactions transactions, long route, int sequence, UUID local, UUID remote,
                      Consumer<Result> done) {
        new PropertiesRead(transactions, XdpHeader.of(route, sequence), local, remote, done).next();
    }

    private void next() {
        transactions.send(new PropertiesRequest(header, local, remote, offset), XdpType.PROPERTIES_RESPONSE,
                this::chunk);
    }

    private void chunk(Outcome outcome) {
        if (outcome instanceof Failed f) {
            done.accept(new Unread(f));
            return;
        }
        PropertiesResponse r = (PropertiesResponse) ((Answered) outcome).response();
        if (r.offset() != offset) {
            fail(Outcome.Failure.INVALID, "asked for offset " + offset + ", got " + r.offset());
            return;
        }
        if (block == null) {
            if (r.dataLength() > PropertyBlock.MAX_DWORDS) {
                fail(Outcome.Failure.INVALID, "block of " + r.dataLength() + " dwords exceeds "
                        + PropertyBlock.MAX_DWORDS);
                return;
            }
            if (r.dataLength() == 0) {
                fail(Outcome.Failure.INVALID, "block length 0");
                return;
            }
            block = new int[r.dataLength()];
            generation = r.generation();
        } else if (r.generation() != generation) {
            fail(Outcome.Failure.TORN, "generation went from " + Integer.toUnsignedString(generation)
                    + " to " + Integer.toUnsignedString(r.generation()) + " during the read");
            return;
        }
        int n = r.dataDwords();
        if (n == 0) {
            fail(Outcome.Failure.INVALID, "empty chunk at offset " + offset);
            return;
        }
        if (offset + n > block.length) {
            fail(Outcome.Failure.INVALID, "chunk of " + n + " dwords at offset " + offset
                    + " runs past the block's " + block.length);
            return;
        }
        System.arraycopy(r.data(), 0, block, offset, n);
        offset += n;
        if (offset < block.length) {
            next();
        } else {
            done.accept(new Block(block, r.generation()));
        }
    }

    private void fail(Outcome.Failure failure, String detail) {
        done.accept(new Unread(new Failed(failure, detail)));
    }
}
