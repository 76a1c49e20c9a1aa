package io.xdlink.bench;

/**
 * One side of an 8-byte ping-pong over a collective-library connection pair, whichever way it is reached (the
 * Java API or the native tables): post a receive, send, test. Both ways run the same loop, so the difference
 * between them is the cost of the native path alone.
 */
interface PingPongSide extends AutoCloseable {

    /** Posts the receive for the next message; false when it must be tried again. */
    boolean postReceive() throws Throwable;

    /** Posts the 8-byte send; false when it must be tried again (the peer has not posted its receive yet). */
    boolean postSend() throws Throwable;

    /** Tests the posted receive; true once it is done (and released). */
    boolean receiveDone() throws Throwable;

    /** Tests the posted send; true once it is done (and released). */
    boolean sendDone() throws Throwable;

    /** One round trip as the initiator: send, then wait for the answer. */
    default void ping() throws Throwable {
        while (!postReceive()) {
            Spinner.idle();
        }
        while (!postSend()) {
            Spinner.idle();
        }
        while (!sendDone()) {
            Spinner.idle();
        }
        while (!receiveDone()) {
            Spinner.idle();
        }
    }

    /** The echoing side as a non-blocking duty cycle, for a {@link Spinner}. */
    final class Echo implements Spinner.Cycle {
        private final PingPongSide side;
        private int stage;

        Echo(PingPongSide side) {
            this.side = side;
        }

        @Override
        public int run() throws Exception {
            try {
                return step();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        /** Advances one stage when it can; returns 1 when it did, 0 when it waited (so the spinner yields). */
        private int step() throws Throwable {
            boolean advanced = switch (stage) {
                case 0 -> side.postReceive();
                case 1 -> side.receiveDone();
                case 2 -> side.postSend();
                default -> side.sendDone();
            };
            if (advanced) {
                stage = (stage + 1) % 4;
            }
            return advanced ? 1 : 0;
        }
    }
}
