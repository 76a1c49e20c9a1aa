package io.xdlink.params.dma;

import io.xdlink.params.Params;

/**
 * What a driver asks of the planner: rings of {@code frames} frames of {@value RingPlanner#FRAME_BYTES} bytes, each
 * in one coherent buffer, falling back no lower than {@code minFrames}.
 *
 * @param parameter the parameter that set the size, named in the warning so the user knows what to change
 * @param frames    the ring size asked for
 * @param minFrames the smallest ring acceptable; a request below it is its own floor
 * @param rings     how many such rings are allocated together (they share one CMA area)
 */
public record RingRequest(String parameter, long frames, long minFrames, int rings) {
    /** The largest ring the planner reasons about: 2^30 frames is 4 TiB, far past any host. */
    public static final long MAX_FRAMES = 1L << 30;

    public RingRequest {
        if (parameter == null || parameter.isBlank()) {
            throw new IllegalArgumentException("the parameter name is needed for the warning");
        }
        if (frames < 1 || frames > MAX_FRAMES) {
            throw new IllegalArgumentException("ring size " + frames + " frames is outside 1.." + MAX_FRAMES);
        }
        if (minFrames < 1 || minFrames > MAX_FRAMES) {
            throw new IllegalArgumentException("minimum ring size " + minFrames + " frames is outside 1.."
                    + MAX_FRAMES);
        }
        if (rings < 1 || rings > 4096) {
            throw new IllegalArgumentException("ring count " + rings + " is outside 1..4096");
        }
    }

    /** One ring of {@code frames}, set by xdlink's {@code ring_size}, falling back no lower than {@code minFrames}. */
    public static RingRequest of(long frames, long minFrames) {
        return new RingRequest(DmaParams.RING_SIZE.name(), frames, minFrames, 1);
    }

    /** The request xdlink's parameters make: {@code ring_size} and {@code ring_size_min}, for {@code rings} rings. */
    public static RingRequest from(Params params, int rings) {
        return new RingRequest(DmaParams.RING_SIZE.name(), params.get(DmaParams.RING_SIZE),
                params.get(DmaParams.RING_SIZE_MIN), rings);
    }
}
