package io.xdlink.rails.engine;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.ConnectHandle;
import io.xdlink.rails.verbs.Connecting;
import io.xdlink.rails.verbs.ConnectionFailedException;
import io.xdlink.rails.verbs.Listener;
import io.xdlink.rails.verbs.QpAttributes;
import io.xdlink.rails.verbs.QpState;
import io.xdlink.rails.verbs.QueuePair;
import io.xdlink.rails.verbs.TwoDevices;
import io.xdlink.xdomain.Generation;
import io.xdlink.xdomain.LinkState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionManagerTest {

    @Test
    void aHandleRoundTripsAndFitsANcclHandle() throws Exception {
        ConnectHandle h = new ConnectHandle(UUID.randomUUID(), 7);
        byte[] b = h.toBytes();
        assertThat(b).hasSize(ConnectHandle.BYTES).hasSizeLessThanOrEqualTo(64);
        byte[] ncclHandle = new byte[128];
        System.arraycopy(b, 0, ncclHandle, 0, b.length);
        assertThat(ConnectHandle.parse(ncclHandle)).isEqualTo(h);
    }

    @Test
    void malformedHandlesAreRefusedByName() {
        byte[] good = new ConnectHandle(UUID.randomUUID(), 7).toBytes();
        assertThatThrownBy(() -> ConnectHandle.parse(new byte[3])).hasMessageContaining("28 bytes");
        byte[] b = good.clone();
        b[0] = 0;
        assertThatThrownBy(() -> ConnectHandle.parse(b)).hasMessageContaining("magic");
        byte[] v = good.clone();
        v[4] = 9;
        assertThatThrownBy(() -> ConnectHandle.parse(v)).hasMessageContaining("version 9");
        byte[] z = good.clone();
        z[24] = z[25] = z[26] = z[27] = 0;
        assertThatThrownBy(() -> ConnectHandle.parse(z)).hasMessageContaining("listener id 0");
    }

    @Test
    void manyConnectionsToOneListenerAreAcceptedInTurn() throws Exception {
        try (TwoDevices t = TwoDevices.simple(2)) {
            Listener l = t.a.listen();
            List<Connecting> cs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                cs.add(t.b.connect(l.handle(), QpAttributes.of(t.pdB, t.cqB)));
            }
            List<QueuePair> accepted = new ArrayList<>();
            t.driver.runUntil(() -> {
                QueuePair qp;
                while ((qp = l.accept(QpAttributes.of(t.pdA, t.cqA))) != null) {
                    accepted.add(qp);
                }
                return cs.stream().allMatch(c -> {
                    try {
                        return c.poll() != null;
                    } catch (ConnectionFailedException e) {
                        throw new AssertionError(e);
                    }
                });
            }, 10_000_000_000L);
            assertThat(accepted).hasSize(20);
            assertThat(accepted).allMatch(q -> q.state() == QpState.READY);
            assertThat(accepted.stream().map(QueuePair::qpn).distinct()).hasSize(20);
        }
    }

    @Test
    void connectingToNoListenerFails() throws Exception {
        try (TwoDevices t = TwoDevices.simple(1)) {
            Connecting c = t.b.connect(new ConnectHandle(t.a.id(), 99), QpAttributes.of(t.pdB, t.cqB));
            t.settle(100_000_000);
            assertThatThrownBy(c::poll).isInstanceOf(ConnectionFailedException.class)
                    .hasMessageContaining("NO_LISTENER");
            assertThat(c.queuePair().state()).isEqualTo(QpState.ERROR);
        }
    }

    @Test
    void connectingToAnUnknownDeviceTimesOut() throws Exception {
        try (TwoDevices t = new TwoDevices(List.of("c"), LinkState.of(Generation.GEN2, 1), false,
                RailsSettings.of("connect_timeout_ms", "50"), 1024, 3)) {
            Connecting c = t.b.connect(new ConnectHandle(UUID.randomUUID(), 1), QpAttributes.of(t.pdB, t.cqB));
            t.settle(40_000_000);
            assertThat(c.poll()).isNull();
            t.settle(20_000_000);
            assertThatThrownBy(c::poll).hasMessageContaining("connect timeout");
        }
    }
}
