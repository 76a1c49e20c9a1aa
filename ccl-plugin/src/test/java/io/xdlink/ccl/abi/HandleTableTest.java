package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class HandleTableTest {

    @Test
    void idsAreNeverNullOrTheOptionalCompletionMarkerAndFindTheirValue() {
        HandleTable t = new HandleTable();
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long id = t.add(HandleTable.Kind.REQUEST, i);
            assertThat(id).isNotIn(0L, 1L);
            assertThat(ids.add(id)).isTrue();
            assertThat(t.get(id, HandleTable.Kind.REQUEST)).isEqualTo(i);
        }
    }

    @Test
    void staleWrongKindAndGarbageIdsFindNothing() {
        HandleTable t = new HandleTable();
        long id = t.add(HandleTable.Kind.SEND, "send");
        assertThat(t.get(id, HandleTable.Kind.RECV)).isNull();
        assertThat(t.remove(id, HandleTable.Kind.SEND)).isEqualTo("send");
        assertThat(t.get(id, HandleTable.Kind.SEND)).as("removed").isNull();
        long reused = t.add(HandleTable.Kind.SEND, "again");
        assertThat(reused).isNotEqualTo(id);
        assertThat(t.get(id, HandleTable.Kind.SEND)).as("stale id of a reused slot").isNull();
        assertThat(t.get(reused, HandleTable.Kind.SEND)).isEqualTo("again");
        for (long garbage : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x7fff_1234_5678L, 8 | 3}) {
            assertThat(t.get(garbage, HandleTable.Kind.SEND)).isNull();
            assertThat(t.remove(garbage, HandleTable.Kind.SEND)).isNull();
        }
    }
}
