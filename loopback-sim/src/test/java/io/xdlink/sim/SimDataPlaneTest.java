package io.xdlink.sim;

import io.xdlink.rails.RailsSettings;
import io.xdlink.xdomain.Generation;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate criteria, measured through the real rails engine (framing, credits, acknowledgements, striping)
 * over the simulator, in virtual time.
 */
class SimDataPlaneTest {
    private static final long BYTES = 16L << 20;

    private final VirtualFabric v = new VirtualFabric();
    private final SimHost a = v.fabric.addHost(HostSpec.named("a").withRings(1024, 256));
    private final SimHost b = v.fabric.addHost(HostSpec.named("b").withRings(1024, 256));

    @Test
    void oneRailOnABondedGen3CableCarriesWithin2PercentOf40Gbps() throws Exception {
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        try (SimDevices d = new SimDevices(v, a, b, RailsSettings.defaults(), 11).rail(c, 0).connect()) {
            double rate = d.writeRate(true, BYTES);
            assertThat(rate).isCloseTo(40_000, Percentage.withPercentage(2)).isLessThanOrEqualTo(40_000);
        }
    }

    @Test
    void aRefusedBondCarries20() throws Exception {
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3).withBonding(Bonding.REFUSED_BY_A));
        v.settle();
        try (SimDevices d = new SimDevices(v, a, b, RailsSettings.defaults(), 12).rail(c, 0).connect()) {
            assertThat(d.writeRate(true, BYTES)).isCloseTo(20_000, Percentage.withPercentage(2));
        }
    }

    @Test
    void twoRailsOnOneCableCarryWhatOneRailCarries() throws Exception {
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        double one;
        try (SimDevices d = new SimDevices(v, a, b, RailsSettings.defaults(), 13).rail(c, 0).connect()) {
            one = d.writeRate(true, BYTES);
        }
        VirtualFabric v2 = new VirtualFabric();
        SimHost a2 = v2.fabric.addHost(HostSpec.named("a").withRings(1024, 256));
        SimHost b2 = v2.fabric.addHost(HostSpec.named("b").withRings(1024, 256));
        SimCable c2 = v2.fabric.connect(a2, b2, CableSpec.of(Generation.GEN3));
        v2.settle();
        try (SimDevices d = new SimDevices(v2, a2, b2, RailsSettings.defaults(), 13).rail(c2, 0).rail(c2, 1)
                .connect()) {
            double two = d.writeRate(true, BYTES);
            assertThat(two).as("two rails on one cable, one rail %.0f Mb/s", one)
                    .isCloseTo(one, Percentage.withPercentage(2));
        }
    }

    @Test
    void twoRailsOnTwoCablesCarryAtLeast195TimesOneRail() throws Exception {
        SimCable c0 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        SimCable c1 = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        double one;
        try (SimDevices d = new SimDevices(v, a, b, RailsSettings.defaults(), 14).rail(c0, 0).connect()) {
            one = d.writeRate(true, BYTES);
        }
        VirtualFabric v2 = new VirtualFabric();
        SimHost a2 = v2.fabric.addHost(HostSpec.named("a").withRings(1024, 256));
        SimHost b2 = v2.fabric.addHost(HostSpec.named("b").withRings(1024, 256));
        SimCable d0 = v2.fabric.connect(a2, b2, CableSpec.of(Generation.GEN3));
        SimCable d1 = v2.fabric.connect(a2, b2, CableSpec.of(Generation.GEN3));
        v2.settle();
        try (SimDevices d = new SimDevices(v2, a2, b2, RailsSettings.defaults(), 14).rail(d0, 0).rail(d1, 0)
                .connect()) {
            double two = d.writeRate(true, BYTES);
            assertThat(two / one).as("two cables %.0f Mb/s, one %.0f Mb/s", two, one).isGreaterThanOrEqualTo(1.95);
        }
    }

    @Test
    void anAsymmetricCableCarriesEachDirectionsOwnRate() throws Exception {
        SimCable c = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3).withCaps(22_700, 11_700));
        v.settle();
        // A full 1024-frame window takes 2.9 ms to drain at 11.7 Gb/s, longer than the default 2 ms retransmission
        // timeout: give the engine a timeout above the drain time so it does not resend frames still queued.
        RailsSettings slowDirection = RailsSettings.of("retransmit_timeout_us", "10000");
        try (SimDevices d = new SimDevices(v, a, b, slowDirection, 15).rail(c, 0).connect()) {
            assertThat(d.writeRate(true, BYTES)).isCloseTo(22_700, Percentage.withPercentage(2));
            assertThat(d.writeRate(false, BYTES)).isCloseTo(11_700, Percentage.withPercentage(2));
        }
    }
}
