package io.xdlink.ccl;

import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.Params;
import io.xdlink.rails.agent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plugin's device threads get the backoff its parameters describe, unless idle_strategy asks for spinning. */
class CclParamsTest {
    private static final Origin HERE = Origin.explicit("test");

    @Test
    void theRegistryKnowsTheIdleCountsWithTheirMeasuredDefaults() {
        Params p = Params.defaults();
        assertThat(p.get(CclParams.IDLE_SPINS)).isEqualTo(10L);
        assertThat(p.get(CclParams.IDLE_YIELDS)).isEqualTo(1L);
        assertThat(CclParams.idle(p)).containsInstanceOf(BackoffIdleStrategy.class);
        Params tuned = p.with("ccl_idle_spins", "0", HERE).with("ccl_idle_yields", "0", HERE);
        assertThat(tuned.get(CclParams.IDLE_SPINS)).isZero();
        assertThat(CclParams.idle(tuned)).containsInstanceOf(BackoffIdleStrategy.class);
    }

    @Test
    void devicesLeaveFinishingRequestsToTheHostUnlessAsked() {
        assertThat(Params.defaults().get(CclParams.DRAIN_ON_PROGRESS)).isFalse();
        assertThat(Params.defaults().with("ccl_drain_on_progress", "on", HERE).get(CclParams.DRAIN_ON_PROGRESS))
                .isTrue();
        assertThatThrownBy(() -> Params.defaults().with("ccl_drain_on_progress", "sometimes", HERE))
                .hasMessageContaining("ccl_drain_on_progress");
    }

    @Test
    void aSpinningDeviceIsLeftToTheRails() {
        assertThat(CclParams.idle(Params.defaults().with("idle_strategy", "spin", HERE))).isEmpty();
    }

    @Test
    void countsOutOfRangeAreRefusedByName() {
        assertThatThrownBy(() -> Params.defaults().with("ccl_idle_spins", "-1", HERE))
                .isInstanceOf(ParamException.class).hasMessageContaining("ccl_idle_spins");
        assertThatThrownBy(() -> Params.defaults().with("ccl_idle_yields", "many", HERE))
                .isInstanceOf(ParamException.class).hasMessageContaining("ccl_idle_yields");
    }
}
