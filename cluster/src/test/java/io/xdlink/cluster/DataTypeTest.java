package io.xdlink.cluster;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeTest {

    @Test
    void bfloat16RoundsToNearestEven() {
        assertThat(RedOp.toBfloat16(1.0f)).isEqualTo((short) 0x3F80);
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even one, 1.
        assertThat(RedOp.toBfloat16(1.00390625f)).isEqualTo((short) 0x3F80);
        // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one is 1 + 2^-6.
        assertThat(RedOp.toBfloat16(1.01171875f)).isEqualTo((short) 0x3F82);
    }

    @Test
    void everyTypeReducesItsPatternExactly() {
        try (Arena arena = Arena.ofConfined()) {
            for (DataType t : DataType.values()) {
                for (RedOp op : RedOp.values()) {
                    MemorySegment acc = arena.allocate(70L * t.bytes());
                    MemorySegment next = arena.allocate(70L * t.bytes());
                    t.fill(acc, 70, 0, 0);
                    for (int host = 1; host < DataType.MAX_EXACT_HOSTS; host++) {
                        t.fill(next, 70, host, 0);
                        op.reduce(t, acc, next, acc, 70);
                    }
                    for (int i = 0; i < 70; i++) {
                        int expected = DataType.pattern(0, i);
                        for (int host = 1; host < DataType.MAX_EXACT_HOSTS; host++) {
                            expected = op.apply(expected, DataType.pattern(host, i));
                        }
                        assertThat(t.holds(acc, i, expected)).as("%s %s element %d: %d", t, op, i, t.get(acc, i))
                                .isTrue();
                    }
                }
            }
        }
    }

    @Test
    void namesAreNcclTestsOwn() {
        assertThat(DataType.parse("float")).isEqualTo(DataType.FLOAT32);
        assertThat(DataType.parse("BFLOAT16")).isEqualTo(DataType.BFLOAT16);
        assertThat(DataType.parse("int32")).isEqualTo(DataType.INT32);
        assertThat(RedOp.parse("max")).isEqualTo(RedOp.MAX);
        assertThatThrownBy(() -> DataType.parse("half")).hasMessageContaining("unknown data type 'half'");
        assertThatThrownBy(() -> RedOp.parse("")).hasMessageContaining("unknown reduction ''");
    }

    @Test
    void busFactorsAreNcclTests() {
        assertThat(Collective.ALL_REDUCE.busFactor(4)).isEqualTo(1.5);
        assertThat(Collective.ALL_GATHER.busFactor(4)).isEqualTo(0.75);
        assertThat(Collective.REDUCE_SCATTER.busFactor(32)).isEqualTo(31.0 / 32);
        assertThat(Collective.BROADCAST.busFactor(8)).isEqualTo(1.0);
        assertThat(Collective.SENDRECV.busFactor(8)).isEqualTo(1.0);
    }
}
