package io.xdlink.rails.engine;

import io.xdlink.rails.verbs.Access;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.TwoDevices;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyTableTest {

    @Test
    void registeredRegionsAreFoundByKeyAndGoneOnceDeregistered() {
        try (TwoDevices t = TwoDevices.simple(1)) {
            List<MemoryRegion> mrs = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                mrs.add(t.pdA.register(MemorySegment.ofArray(new byte[8]), Access.REMOTE_WRITE));
            }
            KeyTable keys = ((DeviceEngine) t.a.agent()).keys();
            assertThat(keys.size()).isEqualTo(500);
            for (MemoryRegion mr : mrs) {
                assertThat(keys.lookup(mr.rkey())).isSameAs(mr);
            }
            for (int i = 0; i < 500; i += 2) {
                mrs.get(i).deregister();
            }
            for (int i = 0; i < 500; i++) {
                assertThat(keys.lookup(mrs.get(i).rkey())).isEqualTo(i % 2 == 0 ? null : mrs.get(i));
            }
            assertThat(keys.lookup(0)).isNull();
            assertThat(keys.size()).isEqualTo(250);
        }
    }

    @Test
    void aRegionMadeOutsideTheTableCannotWithdrawARegisteredKey() {
        try (TwoDevices t = TwoDevices.simple(1)) {
            MemoryRegion real = t.pdA.register(MemorySegment.ofArray(new byte[8]), Access.REMOTE_WRITE);
            MemoryRegion forged = new MemoryRegion(t.pdA, MemorySegment.ofArray(new byte[8]),
                    EnumSet.of(Access.REMOTE_WRITE), 1, real.rkey());
            forged.deregister();
            KeyTable keys = ((DeviceEngine) t.a.agent()).keys();
            assertThat(keys.lookup(real.rkey())).isSameAs(real);
            real.deregister();
            assertThat(keys.lookup(real.rkey())).isNull();
        }
    }

    @Test
    void aReadOnlySegmentCannotGrantWrites() {
        try (TwoDevices t = TwoDevices.simple(1)) {
            MemorySegment ro = MemorySegment.ofArray(new byte[8]).asReadOnly();
            assertThatThrownBy(() -> t.pdA.register(ro, Access.REMOTE_WRITE)).hasMessageContaining("read-only");
            assertThat(t.pdA.register(ro).access()).isEmpty();
        }
    }
}
