package io.xdlink.sim;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HopIdsTest {

    @Test
    void railsTakeHopIdsFrom8UpToMaxAndGiveThemBack() throws IOException {
        HopIds h = new HopIds("a/port0", 15);
        int[] first = h.allocate();
        assertThat(first).containsExactly(8, 8);
        for (int i = 0; i < 7; i++) {
            h.allocate();
        }
        assertThat(h.inUse()).isEqualTo(8);
        assertThatThrownBy(h::allocate).isInstanceOf(IOException.class)
                .hasMessage("a/port0: no free HopID for another rail (HopIDs 8..15 are all in use)");
        h.release(first);
        assertThat(h.allocate()).containsExactly(8, 8);
    }

    @Test
    void aMaxHopIdBelowTheFirstUsableOneIsRefused() {
        assertThatThrownBy(() -> new HopIds("p", 7)).hasMessageContaining("maxhopid 7");
    }
}
