package io.xdlink.rails;

import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RailsSettingsTest {

    @Test
    void theRailsParametersAreRegisteredAndResolveToTheEnginesUnits() {
        ParamRegistry registry = ParamRegistry.load();
        assertThat(registry.find("stripe_min_bytes")).isPresent();
        assertThat(registry.module(RailsParams.STRIPE_MIN_BYTES)).isEqualTo("rails");
        RailsSettings d = RailsSettings.defaults();
        assertThat(d.stripeMinBytes()).isEqualTo(64 * 1024);
        assertThat(d.ackEveryFrames()).isEqualTo(16);
        assertThat(d.inflightBytes()).isEqualTo(64L << 20);
        assertThat(d.ackDelayNanos()).isEqualTo(20_000);
        RailsSettings s = RailsSettings.of("ack_delay_us", "50", "stripe_min_bytes", "1M", "qp_psn_window", "1000");
        assertThat(s.ackDelayNanos()).isEqualTo(50_000);
        assertThat(s.stripeMinBytes()).isEqualTo(1 << 20);
        assertThat(s.qpPsnWindow()).isEqualTo(512);
        assertThat(s.controlReserveFor(64)).isEqualTo(16);
        assertThat(s.controlReserveFor(32)).isEqualTo(8);
    }

    @Test
    void unknownNamesAndBadValuesAreRefusedByName() {
        assertThatThrownBy(() -> RailsSettings.of("ack_every_frame", "3")).isInstanceOf(ParamException.class)
                .hasMessageContaining("ack_every_frames");
        assertThatThrownBy(() -> RailsSettings.of("ack_every_frames", "64")).isInstanceOf(ParamException.class)
                .hasMessageContaining("1..32");
    }
}
