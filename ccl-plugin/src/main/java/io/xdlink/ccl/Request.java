package io.xdlink.ccl;

/** An operation in flight, from a send, receive or flush; {@link CclNet#test} reports it done exactly once. */
public interface Request {
}
