package io.xdlink.rails;

import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.Params;
import io.xdlink.xdomain.ControlChannel;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

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

    /** A fabric with no peers, for what it says about its rails. */
    private static class NoPeers implements Fabric {
        @Override
        public UUID localDomain() {
            return new UUID(0, 1);
        }

        @Override
        public List<PeerInfo> peers() {
            return List.of();
        }

        @Override
        public ControlChannel openControl(UUID peer) throws IOException {
            throw new IOException("no peer " + peer + ": this fabric has none");
        }

        @Override
        public RailTransport openRail(UUID peer, String linkId, int index) throws IOException {
            throw new IOException("no peer " + peer + ": this fabric has none");
        }

        @Override
        public void close() {
        }
    }

    private static Fabric stripingFrom(long bytes) {
        return new NoPeers() {
            @Override
            public long stripeMinBytes() {
                return bytes;
            }
        };
    }

    @Test
    void anUnsetStripeMinimumIsTheFabricsAndASetOneIsTheUsers() {
        Params defaults = Params.defaults(ParamRegistry.of(List.of(new RailsParams())));
        assertThat(RailsSettings.from(defaults, stripingFrom(1 << 20)).stripeMinBytes()).isEqualTo(1 << 20);
        // Set to the parameter's own default: still the user's choice, so the fabric's does not replace it.
        Params set = defaults.with("stripe_min_bytes", "64K", Origin.explicit("test"));
        assertThat(RailsSettings.from(set, stripingFrom(1 << 20)).stripeMinBytes()).isEqualTo(64 * 1024);
        Params other = defaults.with("stripe_min_bytes", "8K", Origin.explicit("test"));
        assertThat(RailsSettings.from(other, stripingFrom(1 << 20)).stripeMinBytes()).isEqualTo(8 * 1024);
        // A fabric that says nothing keeps the parameter's default, measured on USB4 rings.
        assertThat(RailsSettings.from(defaults, new NoPeers()).stripeMinBytes()).isEqualTo(64 * 1024);
    }

    /** A fabric of byte-stream rails: frames up to the format's largest, 16 KiB unless set. */
    private static Fabric streams() {
        return new NoPeers() {
            @Override
            public int frameBytes() {
                return 16384;
            }

            @Override
            public int maxFrameBytes() {
                return 16384;
            }
        };
    }

    @Test
    void anUnsetFrameSizeIsTheFabricsAndASetOneIsTheUsers() {
        Params defaults = Params.defaults(ParamRegistry.of(List.of(new RailsParams())));
        assertThat(RailsSettings.from(defaults, streams()).frameBytes()).isEqualTo(16384);
        assertThat(RailsSettings.from(defaults.with("frame_bytes", "4096", Origin.explicit("test")), streams())
                .frameBytes()).isEqualTo(4096);
        assertThat(RailsSettings.from(defaults.with("frame_bytes", "8192", Origin.explicit("test")), streams())
                .frameBytes()).isEqualTo(8192);
        // USB4 rings (the simulator's) keep the DMA frame.
        assertThat(RailsSettings.from(defaults, new NoPeers()).frameBytes()).isEqualTo(4096);
        assertThat(RailsSettings.from(defaults).frameBytes()).isEqualTo(4096);
    }

    @Test
    void aFrameSizeAboveWhatTheFabricsRailsCarryIsRefusedNamingTheParameterAndWhereItWasSet() {
        Params defaults = Params.defaults(ParamRegistry.of(List.of(new RailsParams())));
        Params big = defaults.with("frame_bytes", "16384", Origin.explicit("-P frame_bytes=16384"));
        assertThatThrownBy(() -> RailsSettings.from(big, new NoPeers())).isInstanceOf(ParamException.class)
                .hasMessageStartingWith("frame_bytes=16384 (-P frame_bytes=16384) is larger than this fabric's "
                        + "rails carry: at most 4096 bytes a frame");
        assertThatThrownBy(() -> RailsSettings.of("frame_bytes", "32768")).isInstanceOf(ParamException.class)
                .hasMessageContaining("frame_bytes");
        assertThatThrownBy(() -> RailsSettings.of("frame_bytes", "255")).isInstanceOf(ParamException.class)
                .hasMessageContaining("frame_bytes");
    }
}
