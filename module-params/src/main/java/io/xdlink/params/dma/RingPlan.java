package io.xdlink.params.dma;

import java.util.List;

/**
 * The planner's answer: the ring size that fits, every size tried on the way with the reason it did or did not fit,
 * and the warning to print when the answer is not what was asked.
 *
 * @param request the request
 * @param frames  the ring size chosen; 0 when not even the minimum fits
 * @param steps   every size tried, largest first
 * @param warning what to tell the user, empty when the full request fits
 */
public record RingPlan(RingRequest request, long frames, List<Step> steps, String warning) {
    public RingPlan {
        steps = List.copyOf(steps);
        if (frames < 0 || frames > request.frames()) {
            throw new IllegalArgumentException("planned " + frames + " frames for a request of " + request.frames());
        }
    }

    /**
     * One size tried.
     *
     * @param frames the ring size
     * @param bytes  the size of one ring's buffer
     * @param fits   whether the host can give it
     * @param reason why, in words
     */
    public record Step(long frames, long bytes, boolean fits, String reason) {
    }

    /** Whether some ring size fits. */
    public boolean fits() {
        return frames > 0;
    }

    /** Whether the planner had to choose a smaller ring than asked. */
    public boolean fellBack() {
        return frames != request.frames();
    }

    /** The size of one ring's buffer. */
    public long bytes() {
        return frames * RingPlanner.FRAME_BYTES;
    }
}
