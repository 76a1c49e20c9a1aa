package io.xdlink.xdomain.discovery;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LaneAdapter;
import io.xdlink.xdomain.Scheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A USB4 cable between two ports in virtual time. The link bonds when both ends target dual with lane 1 enabled
 * and neither controller refuses inter-domain bonding; it retrains {@link #RETRAIN} after any change. Gen 4 comes
 * up bonded.
 */
final class TestCable {
    static final long RETRAIN = 20_000_000L;

    private final Scheduler scheduler;
    private final Generation generation;
    private final End[] ends = new End[2];
    private int width;
    private Scheduler.Timer retrain;

    /** Options of one end. */
    record Port(boolean dual, boolean refusesBonding) {
        static Port dualLane() {
            return new Port(true, false);
        }

        static Port singleLane() {
            return new Port(false, false);
        }

        /** Advertises dual but its controller never bonds an inter-domain link (the AMD field reports). */
        static Port refusing() {
            return new Port(true, true);
        }
    }

    TestCable(Scheduler scheduler, Generation generation, Port a, Port b) {
        this.scheduler = scheduler;
        this.generation = generation;
        ends[0] = new End(a);
        ends[1] = new End(b);
        width = generation == Generation.GEN4 && a.dual && b.dual ? 2 : 1;
    }

    End end(int i) {
        return ends[i];
    }

    int width() {
        return width;
    }

    private void changed() {
        if (retrain != null) {
            retrain.cancel();
        }
        retrain = scheduler.schedule(RETRAIN, () -> {
            retrain = null;
            int next = wanted();
            if (next != width) {
                width = next;
                for (End e : ends) {
                    for (Runnable l : e.listeners) {
                        l.run();
                    }
                }
            }
        });
    }

    private int wanted() {
        if (generation == Generation.GEN4 && ends[0].port.dual && ends[1].port.dual) {
            return 2;
        }
        for (End e : ends) {
            if (!e.port.dual || e.port.refusesBonding || !e.lane1 || e.target != TARGET_WIDTH_DUAL) {
                return 1;
            }
        }
        return 2;
    }

    private static final int TARGET_WIDTH_DUAL = LaneAdapter.TARGET_WIDTH_DUAL;

    /** One end's lane adapters. */
    final class End implements LaneAdapter {
        private final Port port;
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private int target = TARGET_WIDTH_SINGLE;
        private boolean lane1 = true;
        int disables;

        End(Port port) {
            this.port = port;
        }

        @Override
        public int supportedWidth() {
            return port.dual ? SUPPORTED_WIDTH_SINGLE | SUPPORTED_WIDTH_DUAL : SUPPORTED_WIDTH_SINGLE;
        }

        @Override
        public int supportedSpeeds() {
            return 0x5;
        }

        @Override
        public int targetSpeed() {
            return 0xc;
        }

        @Override
        public int targetWidth() {
            return target;
        }

        @Override
        public void setTargetWidth(int tlw) {
            target = tlw;
            changed();
        }

        @Override
        public void enableSecondLane() {
            lane1 = true;
            changed();
        }

        @Override
        public void disableSecondLane() {
            lane1 = false;
            disables++;
            changed();
        }

        boolean secondLaneEnabled() {
            return lane1;
        }

        @Override
        public Generation speed() {
            return generation;
        }

        @Override
        public int currentWidth() {
            return width;
        }

        @Override
        public void addListener(Runnable listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(Runnable listener) {
            listeners.remove(listener);
        }
    }
}
