package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.ControlChannel;
import io.xdlink.xdomain.Scheduler;
import io.xdlink.xdomain.discovery.Outcome.Answered;
import io.xdlink.xdomain.discovery.Outcome.Failed;
import io.xdlink.xdomain.discovery.Outcome.Failure;
import io.xdlink.xdomain.packet.PacketFormatException;
import io.xdlink.xdomain.packet.XdomainPacket;
import io.xdlink.xdomain.packet.XdpCodec;
import io.xdlink.xdomain.packet.XdpError;
import io.xdlink.xdomain.packet.XdpMessage;
import io.xdlink.xdomain.packet.XdpMessage.ErrorResponse;
import io.xdlink.xdomain.packet.XdpType;
import java.util.function.Consumer;

/**
 * The requesting side of one link: sends one XDP request at a time and matches the response, or times out.
 *
 * <p>Matching follows Linux's {@code tb_xdomain_match}: an XDP response whose route (route_hi bit 31 masked) equals
 * the request's. Linux does not look at the type, so any response type would be taken and its bytes misread; here
 * only the expected type or ERROR_RESPONSE matches and anything else is ignored, leaving the request to time out.
 * Like Linux, the sequence number is not checked, and a response longer than its type is accepted. Confined to the
 * scheduler's thread.
 */
final class Transactions {
    private final Scheduler scheduler;
    private final ControlChannel channel;
    private final long timeoutNanos;
    private Pending pending;

    private record Pending(XdpMessage request, XdpType expected, Consumer<Outcome> done, Scheduler.Timer timer) {
    }

    Transactions(Scheduler scheduler, ControlChannel channel, long timeoutNanos) {
        this.scheduler = scheduler;
        this.channel = channel;
        this.timeoutNanos = timeoutNanos;
    }

    /** Sends {@code request}; {@code done} hears the outcome exactly once. */
    void send(XdpMessage request, XdpType expected, Consumer<Outcome> done) {
        if (pending != null) {
            throw new IllegalStateException("request " + pending.request.type() + " still outstanding");
        }
        if (!channel.isOpen()) {
            scheduler.execute(() -> done.accept(new Failed(Failure.CLOSED, "control channel closed")));
            return;
        }
        Pending p = new Pending(request, expected, done, scheduler.schedule(timeoutNanos, this::timeout));
        pending = p;
        channel.send(XdpCodec.encode(request));
    }

    private void timeout() {
        Pending p = pending;
        pending = null;
        if (p != null) {
            p.done.accept(new Failed(Failure.TIMEOUT, "no " + p.expected + " within "
                    + timeoutNanos / 1_000_000 + " ms"));
        }
    }

    /** Offers an XDP response packet; true when it answered the outstanding request. */
    boolean offer(XdomainPacket packet, XdpType type) {
        Pending p = pending;
        if (p == null || packet.header().route() != p.request.header().route()
                || (type != p.expected && type != XdpType.ERROR_RESPONSE)) {
            return false;
        }
        XdpMessage response;
        try {
            response = XdpCodec.decode(packet, true);
        } catch (PacketFormatException e) {
            return false; // too short for its type: Linux does not match it either
        }
        pending = null;
        p.timer.cancel();
        p.done.accept(response instanceof ErrorResponse e ? failure(e) : new Answered(response));
        return true;
    }

    private static Failed failure(ErrorResponse e) {
        String what = "peer answered " + XdpError.describe(e.error());
        return switch (e.known().orElse(XdpError.UNKNOWN_PACKET)) {
            case NOT_READY -> new Failed(Failure.NOT_READY, what);
            case NOT_SUPPORTED -> new Failed(Failure.NOT_SUPPORTED, what);
            // SUCCESS in an error response, or a code outside the protocol: Linux would go on and misread the
            // error packet as the response it wanted; a failed request is the safe reading.
            default -> new Failed(Failure.IO, what);
        };
    }

    /** Ends the outstanding request as {@link Failure#CLOSED} (the link is going away). */
    void cancel() {
        Pending p = pending;
        pending = null;
        if (p != null) {
            p.timer.cancel();
            scheduler.execute(() -> p.done.accept(new Failed(Failure.CLOSED, "link stopped")));
        }
    }

    boolean busy() {
        return pending != null;
    }
}
