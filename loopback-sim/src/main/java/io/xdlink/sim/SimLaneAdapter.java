package io.xdlink.sim;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LaneAdapter;

/**
 * One cable end's lane adapters as the XDomain state machine drives them. Writes go to the cable's lane model,
 * which retrains the link (or, with a refusing controller, quietly does not) and tells both ends' listeners on the
 * fabric's scheduler.
 */
final class SimLaneAdapter implements LaneAdapter {
    private final CableLanes.End end;

    SimLaneAdapter(CableLanes.End end) {
        this.end = end;
    }

    @Override
    public int supportedWidth() {
        return end.supportedWidth();
    }

    @Override
    public int targetWidth() {
        return end.targetWidth();
    }

    @Override
    public void setTargetWidth(int tlw) {
        end.setTargetWidth(tlw);
    }

    @Override
    public void enableSecondLane() {
        end.enableSecondLane();
    }

    @Override
    public void disableSecondLane() {
        end.disableSecondLane();
    }

    @Override
    public Generation speed() {
        return end.speed();
    }

    @Override
    public int currentWidth() {
        return end.currentWidth();
    }

    @Override
    public void addListener(Runnable listener) {
        end.addListener(listener);
    }

    @Override
    public void removeListener(Runnable listener) {
        end.removeListener(listener);
    }
}
