package io.xdlink.ccl;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ListenHandleTest {
    private static final long SEED = Long.getLong("xdlink.test.seed", 0xC0FFEEL);

    @Test
    void fitsTheHostsHandleAndKeepsTheConnectorsStage() throws CclException {
        byte[] address = {1, 2, 3, 4, 5};
        byte[] h = new ListenHandle(address, 0).encode();
        assertThat(h).hasSize(CclNet.HANDLE_MAX_BYTES);
        ListenHandle fresh = ListenHandle.decode(h);
        assertThat(fresh.address()).containsExactly(address);
        assertThat(fresh.pendingId()).isZero();
        ListenHandle.storePending(h, 42);
        assertThat(ListenHandle.decode(h).pendingId()).isEqualTo(42);
        assertThat(ListenHandle.decode(h).address()).containsExactly(address);
    }

    @Test
    void refusesForeignTruncatedAndInconsistentHandles() {
        byte[] h = new ListenHandle(new byte[] {9}, 0).encode();
        assertThatThrownBy(() -> ListenHandle.decode(new byte[8])).hasMessageContaining("shorter");
        byte[] foreign = h.clone();
        foreign[0] = 'I';
        assertThatThrownBy(() -> ListenHandle.decode(foreign)).hasMessageContaining("another plugin");
        byte[] longAddress = h.clone();
        longAddress[5] = (byte) 200;
        assertThatThrownBy(() -> ListenHandle.decode(longAddress)).hasMessageContaining("address length 200");
        byte[] stage = h.clone();
        stage[6] = 1;
        assertThatThrownBy(() -> ListenHandle.decode(stage)).hasMessageContaining("inconsistent");
        assertThatThrownBy(() -> new ListenHandle(new byte[113], 0)).hasMessageContaining("113");
    }

    @Test
    void randomHandlesAreRefusedWithCclExceptionsOnly() {
        SplittableRandom r = new SplittableRandom(SEED);
        for (int i = 0; i < 10_000; i++) {
            byte[] h = new ListenHandle(new byte[] {1, 2}, 0).encode();
            h[r.nextInt(16)] = (byte) r.nextInt();
            try {
                ListenHandle.decode(h);
            } catch (CclException expected) {
                assertThat(expected.result()).isEqualTo(CclResult.INTERNAL_ERROR);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + SEED + " round " + i + ": " + e, e);
            }
        }
    }
}
