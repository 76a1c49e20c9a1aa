package io.xdlink.cli.bench;

import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The peer's compilers during a warm-up: between two warm-up rounds the client asks the server, at the rendezvous, how
 * long its compilers have worked (a {@code COMPILED} record each way), so a warm-up ends only once both hosts' are
 * quiet. Why: a size's first messages take branches the server's compiled engine never took, and the server then
 * drops that code and compiles it again. In the two-host lab, in an {@code -a} sweep's 16 KiB warm-up, the server's
 * compilers worked 10-65 ms of each 13-70 ms round for about half a second while the client's were quiet in some of
 * them; a rule that counted the client's compilers alone would have ended the warm-up at 4.2 Gb/s, where the rounds
 * went on to 37 Gb/s once both hosts' compilers were quiet. The question and its answer pass between rounds, with
 * no message in flight.
 */
final class PeerCompilers {
    static final String KIND = "COMPILED";
    private static final String MILLIS = "ms";

    private PeerCompilers() {
    }

    /**
     * The client's question, asked with its engine handed to the standby while it waits ({@code dev}); the answer is
     * the server's compilers' milliseconds so far.
     */
    static LongSupplier ask(Rendezvous rv, BenchDevice dev) {
        return () -> dev.away(() -> askOnce(rv));
    }

    /** One question and its answer: the peer's compilers' milliseconds so far. */
    static long askOnce(Rendezvous rv) {
        return BenchRecord.parse(rv.exchange(BenchRecord.of(KIND).format()), KIND).getLong(MILLIS, 0, Long.MAX_VALUE);
    }

    /**
     * The server's side of one size: answers every question the client's warm-up asks with this process's
     * compilers' milliseconds, and returns the first other record (the size's result) once {@code reply} has
     * answered it.
     */
    static String serveSize(Rendezvous rv, UnaryOperator<String> reply, LongSupplier progress) {
        while (true) {
            String theirs = rv.serve(t -> isQuestion(t) ? answer() : reply.apply(t), progress);
            if (!isQuestion(theirs)) {
                return theirs;
            }
        }
    }

    static boolean isQuestion(String record) {
        return record.equals(KIND) || record.startsWith(KIND + " ");
    }

    static String answer() {
        return BenchRecord.of(KIND).with(MILLIS, WarmUpPlateau.compilerMillis()).format();
    }
}
