package io.xdlink.sim;

import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import io.xdlink.xdomain.VirtualScheduler;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The physics under the XDomain state machine: when two lane adapters really bond. */
class CableLanesTest {
    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final AtomicInteger heard = new AtomicInteger();

    private CableLanes lanes(CableSpec spec) {
        CableLanes l = new CableLanes(spec, scheduler);
        l.end(true).addListener(heard::incrementAndGet);
        l.end(false).addListener(heard::incrementAndGet);
        return l;
    }

    @Test
    void aCableComesUpAsTwoSingleLaneLinksAndBondsWhenBothEndsTargetDual() {
        CableLanes l = lanes(CableSpec.of(Generation.GEN3));
        assertThat(l.linkState()).isEqualTo(LinkState.of(Generation.GEN3, 1));
        assertThat(l.end(true).supportedWidth()).isEqualTo(0x3);
        l.end(false).setTargetWidth(3);
        scheduler.advance(CableLanes.RETRAIN_NANOS);
        assertThat(l.width()).as("one end alone does not bond").isEqualTo(1);
        l.end(true).enableSecondLane();
        l.end(true).setTargetWidth(3);
        scheduler.advance(CableLanes.RETRAIN_NANOS - 1);
        assertThat(l.width()).as("retraining takes its time").isEqualTo(1);
        scheduler.advance(1);
        assertThat(l.linkState()).isEqualTo(LinkState.of(Generation.GEN3, 2));
        assertThat(l.end(true).currentWidth()).isEqualTo(2);
        assertThat(heard).as("both ends hear of the change").hasValue(2);
    }

    @Test
    void aRefusingControllerAcceptsEverythingAndNeverBonds() {
        CableLanes l = lanes(CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_A));
        assertThat(l.end(true).supportedWidth()).as("it still advertises dual").isEqualTo(0x3);
        l.end(true).setTargetWidth(3);
        l.end(false).setTargetWidth(3);
        scheduler.advance(20 * CableLanes.RETRAIN_NANOS);
        assertThat(l.width()).isEqualTo(1);
        assertThat(heard).hasValue(0);
    }

    @Test
    void disablingTheSecondLaneUnbonds() {
        CableLanes l = lanes(CableSpec.of(Generation.GEN3));
        l.end(true).setTargetWidth(3);
        l.end(false).setTargetWidth(3);
        scheduler.advance(CableLanes.RETRAIN_NANOS);
        assertThat(l.width()).isEqualTo(2);
        l.end(false).disableSecondLane();
        scheduler.advance(CableLanes.RETRAIN_NANOS);
        assertThat(l.width()).isEqualTo(1);
    }

    @Test
    void singleLaneCablesAndGen4LinksAreWhatTheyAre() {
        CableLanes single = lanes(CableSpec.of(Generation.GEN3).withLanes(1));
        assertThat(single.end(true).supportedWidth()).isEqualTo(0x1);
        single.end(true).setTargetWidth(3);
        single.end(false).setTargetWidth(3);
        scheduler.advance(CableLanes.RETRAIN_NANOS);
        assertThat(single.width()).isEqualTo(1);
        assertThat(lanes(CableSpec.of(Generation.GEN4)).linkState().rateMbps()).isEqualTo(80_000);
    }

    @Test
    void aPulledCableRetrainsNoMore() {
        CableLanes l = lanes(CableSpec.of(Generation.GEN3));
        l.end(true).setTargetWidth(3);
        l.end(false).setTargetWidth(3);
        l.kill();
        scheduler.advance(CableLanes.RETRAIN_NANOS);
        assertThat(l.width()).isEqualTo(1);
        assertThat(heard).hasValue(0);
    }

    @Test
    void aTargetWidthOutsideTheRegisterValuesIsRefused() {
        CableLanes l = lanes(CableSpec.of(Generation.GEN3));
        assertThatThrownBy(() -> l.end(true).setTargetWidth(2)).hasMessageContaining("target width");
    }
}
