package io.xdlink.rails.tcp;

import io.xdlink.rails.RailInfo;

import java.util.function.Consumer;

/** Decides, on the accepting host's loop, whether a rail a peer opened is welcome and who takes it. */
@FunctionalInterface
public interface RailAcceptor {

    /** The answer to one hello. */
    Answer answer(RailHello hello);

    /** Take the rail or refuse it. */
    sealed interface Answer permits Take, Refuse {
    }

    /**
     * The rail is welcome: it will report {@code info}, and {@code taker} gets it once the reply is on its way.
     */
    record Take(RailInfo info, Consumer<TcpRailTransport> taker) implements Answer {
    }

    /** The rail is refused with a status the connecting host reports. */
    record Refuse(RailHello.Status status) implements Answer {
        public Refuse {
            if (status == RailHello.Status.ACCEPTED) {
                throw new IllegalArgumentException("a refusal cannot say ACCEPTED");
            }
        }
    }
}
