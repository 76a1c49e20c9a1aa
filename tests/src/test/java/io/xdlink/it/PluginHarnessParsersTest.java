package io.xdlink.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The C harness's own parsers, which the plugin's benchmark trusts: the /proc stat lines its warm-up reads to see
 * whether the JIT compilers are still at work, and its options. Good, malformed, cut-short and hostile input are
 * checked inside the harness ({@code plugin_harness selftest}); a bad option is refused before the plugin loads, with
 * a message naming it.
 */
class PluginHarnessParsersTest {

    @Test
    void theStatLineAndOptionParsersPassTheirOwnCases() throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of(), 60, "selftest");
        assertThat(run.output()).doesNotContain("FAIL")
                .contains("PASS stat: a C1 compiler thread's utime 30 and stime 7 make 37 (got 37)")
                .contains("PASS stat: refused, cut before stime (got -1)")
                .contains("PASS stat: a NUL inside the line is refused (got -1)")
                .contains("PASS sizes: '8,,9' refused");
        assertThat(run.count("PASS ")).isGreaterThanOrEqualTo(55);
        assertThat(run.output()).contains("harness: " + run.count("PASS ") + " passed, 0 failed");
        assertThat(run.exit()).isZero();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--sizes|65536,,1048576|--sizes takes 1 to 8 sizes in bytes, each from 1 to 134217728, split by commas, "
                    + "got '65536,,1048576'",
            "--sizes|0|--sizes takes 1 to 8 sizes",
            "--sizes|1,2,3,4,5,6,7,8,9|--sizes takes 1 to 8 sizes",
            "--bytes|-1|--bytes takes a whole number from 1 to 2^40, got '-1'",
            "--iterations|10k|--iterations takes a whole number from 1 to 10000000, got '10k'",
            "--rounds|0|--rounds takes a whole number from 1 to 1000, got '0'",
            "--warmup-passes|99999999999999999999|--warmup-passes takes a whole number from 1 to 1000",
            "--socket-cc|a-name-far-too-long|--socket-cc takes a congestion control's name of at most 15 characters, "
                    + "got 'a-name-far-too-long'"})
    void aBadNetbenchOptionIsRefusedByName(String option, String value, String message) throws Exception {
        NativeHarness.Run run = NativeHarness.run(Map.of(), 60, "netbench", "--rank", "0", option, value);
        assertThat(run.output()).contains(message).doesNotContain("Loaded net plugin");
        assertThat(run.exit()).isEqualTo(2);
    }
}
