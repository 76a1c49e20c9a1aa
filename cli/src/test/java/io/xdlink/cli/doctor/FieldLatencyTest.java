package io.xdlink.cli.doctor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FieldLatencyTest {
    @Test
    void effectsCompareWithThePreviousRowThatMeasuredTheAdapter() {
        assertThat(FieldLatency.effect(FieldLatency.C_STATES_OFF)).isEqualTo("in the field's measurements, turning"
                + " C-states off took ping from 0.578 to 0.239 ms on a USB 1GbE, 2.268 to 1.471 ms on an onboard"
                + " 2.5GbE, 0.355 to 0.070 ms on a ConnectX-3");
        // ConnectX-3 has no EEE, so its ASPM step compares with the C-states row.
        assertThat(FieldLatency.effect(FieldLatency.ASPM_OFF)).endsWith("0.070 to 0.052 ms on a ConnectX-3");
        assertThat(FieldLatency.effect(FieldLatency.EEE_OFF)).isEqualTo("in the field's measurements, turning EEE off"
                + " took ping from 0.239 to 0.156 ms on a USB 1GbE, 1.471 to 2.798 ms on an onboard 2.5GbE");
    }
}
