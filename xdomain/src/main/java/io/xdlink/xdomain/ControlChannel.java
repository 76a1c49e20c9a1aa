package io.xdlink.xdomain;

import java.util.function.Consumer;

/**
 * Carries XDomain control packets to and from one peer: the simulator's ring 0, or a TCP control connection on a
 * real host, where the packets travel unchanged inside the stream.
 *
 * <p>A packet is the exact wire form: big-endian words followed by the CRC-32C word. The channel does not parse
 * packets; the receiver checks the CRC like a real ring-0 consumer does. Like ring 0, a channel may lose packets;
 * XDomain's retries make up for it.
 */
public interface ControlChannel extends AutoCloseable {

    /** Sends one packet (copied before return). Never blocks; a packet sent on a closed channel is dropped. */
    void send(byte[] packet);

    /**
     * Installs the receiver of packets from the peer, replacing any earlier one. Packets that arrive with no receiver
     * installed are dropped. The receiver runs on the channel's delivery thread and must not block.
     */
    void receiver(Consumer<byte[]> receiver);

    /** False once closed, or when the peer's side went away. */
    boolean isOpen();

    @Override
    void close();
}
