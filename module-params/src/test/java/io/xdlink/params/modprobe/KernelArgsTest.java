package io.xdlink.params.modprobe;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KernelArgsTest {

    private static List<String> texts(String s) {
        return KernelArgs.split(s).stream()
                .map(a -> a.hasValue() ? a.name() + "=<" + a.value() + ">" : a.name())
                .toList();
    }

    @Test
    void splitsOnWhiteSpaceOutsideQuotes() {
        assertThat(texts("  a=1\tb=2  \r\n c ")).containsExactly("a=<1>", "b=<2>", "c");
    }

    @Test
    void quotedValueKeepsSpacesAndLosesItsQuotes() {
        assertThat(texts("p=\"a b\" q=1")).containsExactly("p=<a b>", "q=<1>");
    }

    @Test
    void wholeArgumentInQuotesLosesBothQuotes() {
        assertThat(texts("\"p=a b\" q")).containsExactly("p=<a b>", "q");
    }

    @Test
    void quoteInsideValueTogglesQuotingButStays() {
        // The kernel strips only a quote right after '=' (and the matching last one).
        assertThat(texts("p=a\"b c\"d e")).containsExactly("p=<a\"b c\"d>", "e");
    }

    @Test
    void unclosedQuoteRunsToTheEndAndIsFlagged() {
        List<KernelArgs.Arg> args = KernelArgs.split("a=1 p=\"x y z");
        assertThat(args).hasSize(2);
        assertThat(args.get(1).value()).isEqualTo("x y z");
        assertThat(args.get(1).openQuote()).isTrue();
        assertThat(args.get(0).openQuote()).isFalse();
    }

    @Test
    void nameEndsAtTheFirstEquals() {
        assertThat(texts("p=a=b")).containsExactly("p=<a=b>");
    }

    @Test
    void leadingEqualsDoesNotEndTheName() {
        // next_arg uses 0 as "no '=' yet", so an '=' in the first position is part of the name.
        assertThat(texts("=5")).containsExactly("=5");
        assertThat(texts("=a=b")).containsExactly("=a=<b>");
    }

    @Test
    void emptyValueAndLoneQuoteValue() {
        assertThat(texts("p= q=\"")).containsExactly("p=<>", "q=<>");
    }

    @Test
    void offsetsPointAtEachArgument() {
        assertThat(KernelArgs.split("a=1  bb=2").stream().map(KernelArgs.Arg::offset).toList()).containsExactly(0, 5);
    }

    @Test
    void emptyAndBlankInputsGiveNothing() {
        assertThat(KernelArgs.split("")).isEmpty();
        assertThat(KernelArgs.split(" \t\r\n")).isEmpty();
    }

    @Test
    void aMegabyteArgumentIsOnePass() {
        String big = "p=" + "x".repeat(1 << 20);
        List<KernelArgs.Arg> args = KernelArgs.split(big + " q=1");
        assertThat(args).hasSize(2);
        assertThat(args.get(0).value()).hasSize(1 << 20);
    }
}
