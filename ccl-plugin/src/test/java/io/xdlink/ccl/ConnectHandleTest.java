package io.xdlink.ccl;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectHandleTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xC0FFEEL);

    @Test
    void fitsTheHostsHandleAndKeepsTheConnectorsStage() throws CclException {
        byte[] address = {1, 2, 3, 4, 5};
        byte[] h = new ConnectHandle(address, 0).encode();
        assertThat(h).hasSize(CclNet.HANDLE_MAX_BYTES);
        ConnectHandle fresh = ConnectHandle.decode(h);
        assertThat(fresh.address()).containsExactly(address);
        assertThat(fresh.pendingId()).isZero();
        ConnectHandle.storePending(h, 42);
        assertThat(ConnectHandle.decode(h).pendingId()).isEqualTo(42);
        assertThat(ConnectHandle.decode(h).address()).containsExactly(address);
    }

    @Test
    void refusesForeignTruncatedAndInconsistentHandles() {
        byte[] h = new ConnectHandle(new byte[] {9}, 0).encode();
        assertThatThrownBy(() -> ConnectHandle.decode(new byte[8])).hasMessageContaining("shorter");
        byte[] foreign = h.clone();
        foreign[0] = 'I';
        assertThatThrownBy(() -> ConnectHandle.decode(foreign)).hasMessageContaining("another plugin");
        byte[] longAddress = h.clone();
        longAddress[5] = (byte) 200;
        assertThatThrownBy(() -> ConnectHandle.decode(longAddress)).hasMessageContaining("address length 200");
        byte[] stage = h.clone();
        stage[6] = 1;
        assertThatThrownBy(() -> ConnectHandle.decode(stage)).hasMessageContaining("inconsistent");
        assertThatThrownBy(() -> new ConnectHandle(new byte[113], 0)).hasMessageContaining("113");
    }

    @Test
    void randomHandlesAreRefusedWithCclExceptionsOnly() {
        SplittableRandom r = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++) {
            byte[] h = new ConnectHandle(new byte[] {1, 2}, 0).encode();
            h[r.nextInt(16)] = (byte) r.nextInt();
            try {
                ConnectHandle.decode(h);
            } catch (CclException expected) {
                assertThat(expected.result()).isEqualTo(CclResult.INTERNAL_ERROR);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + SEED + " round " + i + ": " + e, e);
            }
        }
    }
}
