package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The header reader on small texts: what it reads, and the clear one-line refusal of what it must not. */
class CHeaderConstantsTest {

    private static Map<String, CHeaderConstants.Constant> parse(String text) {
        return CHeaderConstants.parse("t.h", text, "XDL_");
    }

    private static long value(String text, String name) {
        return parse(text).get(name).value();
    }

    @Test
    void literalsInEveryBaseWithSuffixesSignsAndShifts() {
        Map<String, CHeaderConstants.Constant> c = parse("""
                #define XDL_DEC 42
                #define XDL_HEX 0x1FFFFFFF
                #define XDL_HEX_UPPER 0XffU
                #define XDL_OCTAL 017
                #define XDL_ZERO 0
                #define XDL_NEG -7
                #define XDL_NEG_PAREN (-(8))
                #define XDL_SHIFT (1 << 14)
                #define XDL_SUFFIXED 0xFFFFFFFF00000000ull
                #define XDL_SUM (XDL_DEC + 1 - 2)
                #define XDL_OR (1 | 4)
                #define XDL_RIGHT (256 >> 4)
                #define XDL_REF XDL_SHIFT
                  #  define   XDL_SPACED   3
                #define OTHER_PREFIX 5
                """);
        assertThat(c.get("XDL_DEC").value()).isEqualTo(42);
        assertThat(c.get("XDL_HEX").value()).isEqualTo(0x1FFFFFFF);
        assertThat(c.get("XDL_HEX_UPPER").value()).isEqualTo(255);
        assertThat(c.get("XDL_OCTAL").value()).isEqualTo(15);
        assertThat(c.get("XDL_ZERO").value()).isZero();
        assertThat(c.get("XDL_NEG").value()).isEqualTo(-7);
        assertThat(c.get("XDL_NEG_PAREN").value()).isEqualTo(-8);
        assertThat(c.get("XDL_SHIFT").value()).isEqualTo(16384);
        assertThat(c.get("XDL_SUFFIXED").value()).isEqualTo(0xFFFF_FFFF_0000_0000L);
        assertThat(c.get("XDL_SUM").value()).isEqualTo(41);
        assertThat(c.get("XDL_OR").value()).isEqualTo(5);
        assertThat(c.get("XDL_RIGHT").value()).isEqualTo(16);
        assertThat(c.get("XDL_REF").value()).isEqualTo(16384);
        assertThat(c.get("XDL_SPACED")).isEqualTo(new CHeaderConstants.Constant("XDL_SPACED", 3, 14));
        assertThat(c).doesNotContainKey("OTHER_PREFIX").hasSize(14);
        assertThat(c.keySet()).startsWith("XDL_DEC", "XDL_HEX");
    }

    @Test
    void commentsAreNotCodeAndCodeAfterThemIs() {
        Map<String, CHeaderConstants.Constant> c = parse("""
                /* #define XDL_IN_BLOCK 1
                   still the comment */
                #define XDL_A 1 /* trailing */
                #define XDL_B /* inside */ 2 // and a line comment
                // #define XDL_IN_LINE 3
                #define XDL_C \\
                    (XDL_A + XDL_B)
                #define XDL_D 4 /* a comment
                over lines */
                #define XDL_E 5
                static const char *s = "/* not a comment";
                #define XDL_F 6
                """);
        assertThat(c.keySet()).containsExactly("XDL_A", "XDL_B", "XDL_C", "XDL_D", "XDL_E", "XDL_F");
        assertThat(c.get("XDL_B").value()).isEqualTo(2);
        assertThat(c.get("XDL_C").value()).isEqualTo(3);
        assertThat(c.get("XDL_C").line()).isEqualTo(6);
        assertThat(c.get("XDL_E").line()).isEqualTo(10);
        assertThat(c.get("XDL_F").value()).isEqualTo(6);
    }

    @Test
    void enumValuesCountOnFromTheLastOneGiven() {
        Map<String, CHeaderConstants.Constant> c = parse("""
                typedef enum {
                    XDL_STATE_IDLE,
                    XDL_STATE_BUSY,
                    XDL_STATE_DONE = 8, /* a jump */
                    XDL_STATE_GONE,
                    OTHER_VALUE = -1,
                    XDL_STATE_AFTER,
                } xdl_state_t;
                enum xdl_bits { XDL_BIT_A = 1 << 2, XDL_BIT_B = XDL_BIT_A | 1 };
                """);
        assertThat(c.get("XDL_STATE_IDLE").value()).isZero();
        assertThat(c.get("XDL_STATE_BUSY").value()).isEqualTo(1);
        assertThat(c.get("XDL_STATE_DONE").value()).isEqualTo(8);
        assertThat(c.get("XDL_STATE_GONE").value()).isEqualTo(9);
        assertThat(c.get("XDL_STATE_AFTER").value()).isZero();
        assertThat(c.get("XDL_STATE_DONE").line()).isEqualTo(4);
        assertThat(c.get("XDL_BIT_A").value()).isEqualTo(4);
        assertThat(c.get("XDL_BIT_B").value()).isEqualTo(5);
        assertThat(c).doesNotContainKey("OTHER_VALUE");
    }

    @Test
    void aValueThatIsNotANumberIsRefusedByName() {
        assertThatThrownBy(() -> parse("#define XDL_NAME \"xdlink\"\n"))
                .hasMessage("t.h line 1: XDL_NAME: not an integer constant expression: '\"xdlink\"'");
        assertThatThrownBy(() -> parse("\n#define XDL_X SOMETHING_ELSE\n"))
                .hasMessage("t.h line 2: XDL_X: 'SOMETHING_ELSE' is not an integer constant declared before it");
        assertThatThrownBy(() -> parse("#define XDL_X XDL_Y\n#define XDL_Y 1\n"))
                .hasMessageContaining("'XDL_Y' is not an integer constant declared before it");
        assertThatThrownBy(() -> parse("#define XDL_F 1.5\n")).hasMessage("t.h line 1: XDL_F: unexpected '.5'");
        assertThatThrownBy(() -> parse("#define XDL_G 12abc\n"))
                .hasMessage("t.h line 1: XDL_G: '12abc' is not an integer literal that fits 64 bits");
        assertThatThrownBy(() -> parse("#define XDL_H 0x\n")).hasMessageContaining("'0x' is not an integer literal");
        assertThatThrownBy(() -> parse("#define XDL_I 089\n")).hasMessageContaining("'089' is not an integer literal");
        assertThatThrownBy(() -> parse("#define XDL_J(x) ((x) + 1)\n"))
                .hasMessage("t.h line 1: XDL_J: a function-like macro, not a constant");
    }

    @Test
    void truncatedAndUnclosedInputIsRefusedWithItsLine() {
        assertThatThrownBy(() -> parse("#define XDL_A 1\n#define XDL_EMPTY\n"))
                .hasMessage("t.h line 2: XDL_EMPTY: defined without a value");
        assertThatThrownBy(() -> parse("#define XDL_A (1 <<")).hasMessage("t.h line 1: XDL_A: ends where a value"
                + " should be");
        assertThatThrownBy(() -> parse("#define XDL_A (1 << 2")).hasMessage("t.h line 1: XDL_A: a '(' that is never"
                + " closed");
        assertThatThrownBy(() -> parse("#define XDL_A 1 2")).hasMessage("t.h line 1: XDL_A: unexpected '2'");
        assertThatThrownBy(() -> parse("#define XDL_A 1\n/* never closed\n#define XDL_B 2\n"))
                .hasMessage("t.h line 2: a comment that is never closed");
        assertThatThrownBy(() -> parse("enum { XDL_A, XDL_B\n")).hasMessage("t.h line 1: an enum that is never"
                + " closed");
        assertThatThrownBy(() -> parse("enum { XDL_A = , XDL_B };")).hasMessage("t.h line 1: XDL_A: no value");
        assertThatThrownBy(() -> parse("enum { 3 };")).hasMessageContaining("not NAME or NAME = value: '3'");
    }

    @Test
    void hostileValuesAreRefusedNotWrappedOrRecursedInto() {
        assertThatThrownBy(() -> parse("#define XDL_BIG 0x1FFFFFFFFFFFFFFFF\n"))
                .hasMessageContaining("not an integer literal that fits 64 bits");
        assertThatThrownBy(() -> parse("#define XDL_BIG 99999999999999999999\n"))
                .hasMessageContaining("fits 64 bits");
        assertThatThrownBy(() -> parse("#define XDL_S (1 << 64)\n")).hasMessage("t.h line 1: XDL_S: a shift by 64");
        assertThatThrownBy(() -> parse("#define XDL_S (1 << -1)\n")).hasMessageContaining("a shift by -1");
        assertThatThrownBy(() -> parse("#define XDL_S (3 << 62)\n")).hasMessageContaining("does not fit 64 bits");
        assertThatThrownBy(() -> parse("#define XDL_S (9223372036854775807 + 1)\n"))
                .hasMessageContaining("does not fit 64 bits");
        assertThatThrownBy(() -> parse("#define XDL_D " + "(".repeat(10_000) + "1" + ")".repeat(10_000) + "\n"))
                .hasMessageContaining("nested deeper than 32");
        assertThatThrownBy(() -> parse("#define XDL_D " + "-".repeat(10_000) + "1\n"))
                .hasMessageContaining("nested deeper than 32");
        assertThatThrownBy(() -> parse("#define XDL_A 1\n#define XDL_A 1\n"))
                .hasMessage("t.h line 2: XDL_A: declared again (first on line 1)");
        assertThatThrownBy(() -> parse("#define XDL_A 1\nenum { XDL_A = 2 };\n"))
                .hasMessage("t.h line 2: XDL_A: declared again (first on line 1)");
        assertThat(parse("")).isEmpty();
        assertThat(parse("#define\n#define XDLINK_GUARD_H\n#\n")).isEmpty();
    }
}
