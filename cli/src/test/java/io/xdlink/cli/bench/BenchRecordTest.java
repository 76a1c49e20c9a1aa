package io.xdlink.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class BenchRecordTest {

    @Test
    void roundTrips() {
        BenchRecord r = BenchRecord.of("RESULT").with("size", 65536).with("avg", 15.84).with("addr", "0x7f00");
        BenchRecord back = BenchRecord.parse(r.format(), "RESULT");
        assertThat(back).isEqualTo(r);
        assertThat(back.getLong("size", 1, 1 << 20)).isEqualTo(65536);
        assertThat(back.getDouble("avg")).isEqualTo(15.84);
        assertThat(back.getHex("addr")).isEqualTo(0x7f00);
    }

    @Test
    void aPeersErrorBecomesTheMessage() {
        assertThatThrownBy(() -> BenchRecord.parse(BenchRecord.error("no rail to the peer"), "READY"))
                .isInstanceOf(BenchException.class).hasMessage("the peer gave up: no rail to the peer");
    }

    @Test
    void malformedAndHostileRecordsAreRefusedByName() {
        assertThatThrownBy(() -> BenchRecord.parse("READY x=1", "RESULT")).hasMessageContaining("expected a RESULT");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT size", "RESULT")).hasMessageContaining("malformed field");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT =1", "RESULT")).hasMessageContaining("malformed field");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT a=1 a=2", "RESULT")).hasMessageContaining("twice");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT a=1", "RESULT").get("b")).hasMessageContaining("no 'b'");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT n=9999999999999999999", "RESULT").getLong("n", 0, 10))
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT n=11", "RESULT").getLong("n", 0, 10))
                .hasMessageContaining("outside 0..10");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT d=NaN", "RESULT").getDouble("d"))
                .hasMessageContaining("not a finite number");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT a=0x", "RESULT").getHex("a"))
                .hasMessageContaining("not 0x and hex");
        assertThatThrownBy(() -> BenchRecord.parse("RESULT a=0x12345678901234567", "RESULT").getHex("a"))
                .hasMessageContaining("not 0x and hex");
    }

    @Test
    void randomRecordsEitherParseOrFailWithBenchException() {
        long seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        String alphabet = "RESULT=ab 01x.,-\u00e9\t";
        for (int i = 0; i < 100_000; i++) {
            StringBuilder sb = new StringBuilder("RESULT");
            int n = random.nextInt(40);
            for (int k = 0; k < n; k++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                BenchRecord r = BenchRecord.parse(sb.toString(), "RESULT");
                for (String key : r.values().keySet()) {
                    try {
                        r.getLong(key, 0, 100);
                    } catch (BenchException expected) {
                        // a field that is not such a number is refused by name
                    }
                }
            } catch (BenchException expected) {
                // refused with the layer's own exception
            } catch (RuntimeException other) {
                fail("seed " + seed + " (rerun with -Dxdlink.test.seed=" + seed + "): <" + sb + "> threw " + other);
            }
        }
    }
}
